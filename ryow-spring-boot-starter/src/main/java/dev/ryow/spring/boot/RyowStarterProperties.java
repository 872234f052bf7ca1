package dev.ryow.spring.boot;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * The starter's own settings: {@code ryow.web.*}, {@code ryow.client.*}, {@code ryow.messaging.*},
 * {@code ryow.annotations.*},
 * {@code ryow.metrics.*} and {@code ryow.datasource.*}.
 * The driver's settings ({@code ryow.wait-timeout}, {@code ryow.token-key}...) sit beside them under
 * {@code ryow.} and are bound by {@link RyowDriverSettings}.
 */
@ConfigurationProperties("ryow")
public final class RyowStarterProperties {
  private final Web web = new Web();
  private final Client client = new Client();
  private final Messaging messaging = new Messaging();
  private final Annotations annotations = new Annotations();
  private final Metrics metrics = new Metrics();
  private final DataSource datasource = new DataSource();

  /** The consistency filter. */
  public Web getWeb() {
    return web;
  }

  /** The HTTP client interceptor. */
  public Client getClient() {
    return client;
  }

  /** The message propagation (Spring Kafka, Spring AMQP). */
  public Messaging getMessaging() {
    return messaging;
  }

  /** The per-call freshness annotations. */
  public Annotations getAnnotations() {
    return annotations;
  }

  /** The Micrometer meters. */
  public Metrics getMetrics() {
    return metrics;
  }

  /** Handing the driver settings to the DataSource. */
  public DataSource getDatasource() {
    return datasource;
  }

  /** How the consistency token travels between the browser (or client) and the instances. */
  public enum Transport {
    /** In a cookie: browsers carry it to whichever instance serves the next request. */
    COOKIE,
    /** In a request and response header, for API clients that carry it themselves. */
    HEADER
  }

  /**
   * {@code ryow.web.*}: the servlet filter that carries read-your-writes across instances. The settings of the
   * filter itself ({@code ryow.web.header-name}, {@code ryow.web.invalid-token}, {@code ryow.web.cookie.*}) are
   * not fields here: they are the filter's own definitions ({@link dev.ryow.jdbc.web.FilterSetting}), bound by
   * {@link FilterSettingsBinder} with the filter's defaults and messages.
   */
  public static final class Web {
    /** Whether to register the consistency filter (servlet web applications). */
    private boolean enabled = true;

    /** Where the token travels: a cookie (browsers) or a header (API clients). */
    private Transport transport = Transport.COOKIE;

    /**
     * Whether the filter also serves calling services (ryow.client on the caller): with transport=cookie, a
     * request that carries the header ryow.web.header-name is served with that token and answered in that
     * header. Requests without it (browsers) are served as before.
     */
    private boolean serviceCalls = true;


    /** URL patterns the filter applies to. */
    private List<String> urlPatterns = new ArrayList<>(List.of("/*"));

    /** Order of the filter in the chain: early, so that everything after it reads inside the request's scope. */
    private int order = Ordered.HIGHEST_PRECEDENCE + 20;


    /** Whether the filter is registered. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Registers the filter, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** Where the token travels. */
    public Transport getTransport() {
      return transport;
    }

    /** Sets where the token travels. */
    public void setTransport(Transport transport) {
      this.transport = transport;
    }

    /** Whether the filter serves calling services in the header with transport=cookie. */
    public boolean isServiceCalls() {
      return serviceCalls;
    }

    /** Serves calling services in the header, or not. */
    public void setServiceCalls(boolean serviceCalls) {
      this.serviceCalls = serviceCalls;
    }

    /** The URL patterns. */
    public List<String> getUrlPatterns() {
      return urlPatterns;
    }

    /** Sets the URL patterns. */
    public void setUrlPatterns(List<String> urlPatterns) {
      this.urlPatterns = urlPatterns;
    }

    /** The filter's order. */
    public int getOrder() {
      return order;
    }

    /** Sets the filter's order. */
    public void setOrder(int order) {
      this.order = order;
    }

  }

  /** {@code ryow.messaging.*}: the token in messages (Spring Kafka, Spring AMQP). */
  public static final class Messaging {
    /**
     * Whether to add the current scope's token (header ryowToken, signed with ryow.token-key) to the records
     * and messages KafkaTemplate and RabbitTemplate beans send, and to open a scope with a received message's
     * token around @KafkaListener and @RabbitListener listeners, so that a consumer reads the producer's
     * writes. Active only when Spring Kafka or Spring AMQP is on the class path.
     */
    private boolean enabled = true;

    /** Whether the propagation is added. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Adds the propagation, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code ryow.client.*}: the token on calls to other services (RestClient, RestTemplate). */
  public static final class Client {
    /**
     * Whether to add the current scope's token (header ryow.web.header-name, signed with ryow.token-key) to
     * the requests of RestTemplate, RestClient.Builder and WebClient.Builder beans, so that the called service
     * reads this request's writes.
     */
    private boolean enabled = true;

    /**
     * Whether the token the called service answers with is merged into the caller's scope, so that the
     * caller's next reads see the called service's writes.
     */
    private boolean mergeResponse = true;

    /** Whether the interceptor is added. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Adds the interceptor, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** Whether responses' tokens are merged. */
    public boolean isMergeResponse() {
      return mergeResponse;
    }

    /** Merges responses' tokens, or not. */
    public void setMergeResponse(boolean mergeResponse) {
      this.mergeResponse = mergeResponse;
    }
  }

  /** {@code ryow.annotations.*}: {@code @ReadYourWrites}, {@code @FreshRead} and {@code @AllowStale}. */
  public static final class Annotations {
    /**
     * Whether methods and classes annotated @ReadYourWrites, @FreshRead or @AllowStale run in the matching
     * consistency scope (Spring AOP advice, ahead of @Transactional).
     */
    private boolean enabled = true;

    /** Whether the annotations apply. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Applies the annotations, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code ryow.metrics.*}: Micrometer meters of the cluster. */
  public static final class Metrics {
    /** Whether to register the driver's meters (ryow.*) with Micrometer when it is present. */
    private boolean enabled = true;

    /** Whether the meters are registered. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Registers the meters, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code ryow.datasource.*}: how the driver settings reach the DataSource. */
  public static final class DataSource {
    /**
     * Whether to hand the ryow.* driver settings from Spring configuration to HikariDataSource and
     * RyowDataSource beans with a jdbc:ryow: URL (as data source properties, validated at startup).
     */
    private boolean enabled = true;

    /** Whether the settings are handed over. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Hands the settings over, or not. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
