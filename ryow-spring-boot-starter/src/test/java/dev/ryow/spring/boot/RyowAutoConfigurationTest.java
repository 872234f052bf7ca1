package dev.ryow.spring.boot;

import static dev.ryow.spring.boot.StarterContexts.KEY;
import static dev.ryow.spring.boot.StarterContexts.URL;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowDataSource;
import dev.ryow.jdbc.RyowDriver;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.micrometer.RyowMeterBinder;
import dev.ryow.jdbc.web.RyowConsistencyFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.Cookie;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The auto-configuration in application contexts: when it is active, what it registers, what switches it off. */
class RyowAutoConfigurationTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @Test
  void silentWhenTheDataSourceIsNotJdbcRyow() {
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=jdbc:mysql://127.0.0.1:1/app", "ryow.wait-timeout=250")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(HikariDataSource.class);
          assertNoStarterBeans(context);
          assertThat(context.getBean(HikariDataSource.class).getDataSourceProperties()).isEmpty();
        });
    StarterContexts.web().withPropertyValues("spring.datasource.url=jdbc:mysql://127.0.0.1:1/app")
        .run(context -> assertNoStarterBeans(context));
  }

  private static void assertNoStarterBeans(AssertableWebApplicationContext context) {
    assertThat(context).doesNotHaveBean(RyowSettings.class)
        .doesNotHaveBean(RyowDataSourceSettingsPostProcessor.class)
        .doesNotHaveBean(RyowWebAutoConfiguration.FILTER_NAME)
        .doesNotHaveBean(RyowMeterBinder.class)
        .doesNotHaveBean(RyowInfoContributor.class)
        .doesNotHaveBean("ryowHealthIndicator");
  }

  @Test
  void everyPartIsThereForAJdbcRyowUrl() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL).run(context -> {
      assertThat(context).hasNotFailed()
          .hasSingleBean(RyowSettings.class)
          .hasSingleBean(RyowDataSourceSettingsPostProcessor.class)
          .hasSingleBean(RyowMeterBinder.class)
          .hasSingleBean(RyowInfoContributor.class)
          .hasBean("ryowHealthIndicator");
      FilterRegistrationBean<?> registration =
          context.getBean(RyowWebAutoConfiguration.FILTER_NAME, FilterRegistrationBean.class);
      assertThat(registration.getFilter()).isInstanceOf(RyowConsistencyFilter.class);
      assertThat(registration.getUrlPatterns()).containsExactly("/*");
      assertThat(registration.getOrder()).isEqualTo(Integer.MIN_VALUE + 20);
      assertThat(context.getBean(RyowSettings.class).requestScopeMode())
          .as("requests keep the default jvm guarantee and add the user's token").isEqualTo(ConsistencyMode.JVM);
    });
  }

  /** An application's own HTTP clients, as beans. */
  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class HttpClients {
    @org.springframework.context.annotation.Bean
    org.springframework.web.client.RestTemplate restTemplate() {
      return new org.springframework.web.client.RestTemplate();
    }

    @org.springframework.context.annotation.Bean
    org.springframework.web.client.RestClient.Builder restClientBuilder() {
      return org.springframework.web.client.RestClient.builder();
    }
  }

  @Test
  void theApplicationsRestTemplateAndRestClientCarryTheTokenUnlessSwitchedOff() {
    StarterContexts.web().withUserConfiguration(HttpClients.class).withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(RyowClientHttpRequestInterceptor.class);
          assertThat(context.getBean(org.springframework.web.client.RestTemplate.class).getInterceptors())
              .containsExactly(context.getBean(RyowClientHttpRequestInterceptor.class));
          java.util.List<Object> onBuilder = new java.util.ArrayList<>();
          context.getBean(org.springframework.web.client.RestClient.Builder.class).requestInterceptors(onBuilder::addAll);
          assertThat(onBuilder).containsExactly(context.getBean(RyowClientHttpRequestInterceptor.class));
          assertThat(context.getBean(RyowClientHttpRequestInterceptor.class).toString())
              .contains("header=X-Ryow-Token", "mergeResponses=true");
          FilterRegistrationBean<?> registration =
              context.getBean(RyowWebAutoConfiguration.FILTER_NAME, FilterRegistrationBean.class);
          assertThat(registration.getFilter().toString()).as("cookie transport serves calling services in the header")
              .contains("header=null", "callerHeader=X-Ryow-Token");
        });
    StarterContexts.web().withUserConfiguration(HttpClients.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.client.enabled=false", "ryow.web.service-calls=false")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowClientHttpRequestInterceptor.class);
          assertThat(context.getBean(org.springframework.web.client.RestTemplate.class).getInterceptors()).isEmpty();
          assertThat(context.getBean(RyowWebAutoConfiguration.FILTER_NAME, FilterRegistrationBean.class).getFilter().toString())
              .contains("callerHeader=null");
        });
    StarterContexts.web().withUserConfiguration(HttpClients.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.client.merge-response=false")
        .run(context -> assertThat(context.getBean(RyowClientHttpRequestInterceptor.class).toString())
            .contains("mergeResponses=false"));
    StarterContexts.web().withUserConfiguration(HttpClients.class)
        .withPropertyValues("spring.datasource.url=jdbc:mysql://127.0.0.1:1/app")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RyowClientHttpRequestInterceptor.class));
  }

  /** An application's own WebClient.Builder, as a bean. */
  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class WebClients {
    @org.springframework.context.annotation.Bean
    org.springframework.web.reactive.function.client.WebClient.Builder webClientBuilder() {
      return org.springframework.web.reactive.function.client.WebClient.builder();
    }
  }

  private static java.util.List<Object> filtersOf(org.springframework.web.reactive.function.client.WebClient.Builder builder) {
    java.util.List<Object> filters = new java.util.ArrayList<>();
    builder.filters(filters::addAll);
    return filters;
  }

  @Test
  void theApplicationsWebClientBuilderCarriesTheTokenUnlessSwitchedOffAndNothingNeedsWebFlux() {
    StarterContexts.web().withUserConfiguration(WebClients.class).withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(RyowExchangeFilterFunction.class);
          assertThat(filtersOf(context.getBean(org.springframework.web.reactive.function.client.WebClient.Builder.class)))
              .containsExactly(context.getBean(RyowExchangeFilterFunction.class));
          assertThat(context.getBean(RyowExchangeFilterFunction.class).toString())
              .contains("header=X-Ryow-Token", "mergeResponses=true");
        });
    StarterContexts.web().withUserConfiguration(WebClients.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.client.merge-response=false")
        .run(context -> assertThat(context.getBean(RyowExchangeFilterFunction.class).toString())
            .contains("mergeResponses=false"));
    StarterContexts.web().withUserConfiguration(WebClients.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.client.enabled=false")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowExchangeFilterFunction.class);
          assertThat(filtersOf(context.getBean(org.springframework.web.reactive.function.client.WebClient.Builder.class)))
              .isEmpty();
        });
    StarterContexts.web().withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader(
            "org.springframework.web.reactive", "reactor."))
        .withUserConfiguration(HttpClients.class).withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> assertThat(context).as("without WebFlux: the rest as before").hasNotFailed()
            .doesNotHaveBean(RyowExchangeFilterFunction.class)
            .hasSingleBean(RyowClientHttpRequestInterceptor.class)
            .hasBean(RyowWebAutoConfiguration.FILTER_NAME));
  }

  @Test
  void theFilterOnlyInServletApplications() {
    StarterContexts.plain().withPropertyValues("spring.datasource.url=" + URL).run(context -> assertThat(context)
        .hasNotFailed().hasSingleBean(RyowSettings.class).doesNotHaveBean(RyowWebAutoConfiguration.FILTER_NAME));
  }

  @Test
  void driverSettingsReachTheDataSourceByTheirSpringNamesInAnyRelaxedForm() {
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.wait-timeout=250", "ryow.tokenKey=" + KEY,
            "ryow.replica_selection=random", "spring.datasource.hikari.data-source-properties.cachePrepStmts=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(HikariDataSource.class).getDataSourceProperties())
              .containsEntry("ryow.waitTimeout", "250")
              .containsEntry("ryow.tokenKey", KEY)
              .containsEntry("ryow.replicaSelection", "random")
              .containsEntry("cachePrepStmts", "true")
              .hasSize(4);
          assertThat(context.getBean(RyowSettings.class).tokensSigned()).isTrue();
        });
  }

  @Test
  void ryowDataSourceBeansReceiveTheSettingsToo() {
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.wait-timeout=250")
        .withUserConfiguration(OwnRyowDataSource.class)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(RyowDataSource.class).getProperties()).containsEntry("ryow.waitTimeout", "250");
        });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnRyowDataSource {
    @Bean
    RyowDataSource dataSource() {
      RyowDataSource ds = new RyowDataSource();
      ds.setUrl(URL);
      return ds;
    }
  }

  @Test
  void badSettingsFailAtStartupWithTheDriversMessage() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.wait-timeout=0")
        .run(context -> assertFailure(context, "Invalid value for ryow.waitTimeout: expected integer 1..60000"));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.wait-timout=5")
        .run(context -> assertFailure(context, "Unknown property 'ryow.wait-timout'"));
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL + "?ryow.waitTimeout=100", "ryow.wait-timeout=200")
        .run(context -> assertFailure(context, "ryow.wait-timeout is set in Spring configuration and, differently, as"
            + " ryow.waitTimeout in the URL: set it in one place"));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.token-key=short-secret")
        .run(context -> {
          assertFailure(context, "Invalid value for ryow.tokenKey");
          assertThat(rootMessages(context)).doesNotContain("short-secret");
        });
  }

  @Test
  void theFiltersSettingsFailAsTheFiltersInitParametersDo() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.web.cookie.max-age=5w")
        .run(context -> assertFailure(context, "cookieMaxAge (ryow.web.cookie.max-age) must be whole seconds, a whole"
            + " number with ms, s, m, h or d, or ISO-8601 (PT5M), at most 2147483647 s, not '5w'"));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.web.invalid-token=drop")
        .run(context -> assertFailure(context, "invalidToken (ryow.web.invalid-token) must be 'ignore' or 'reject', not 'drop'"));
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.web.cookie.same-site=", "ryow.web.cookie.max-age=PT1M")
        .run(context -> {
          MockHttpServletResponse response = new MockHttpServletResponse();
          filter(context).doFilter(new MockHttpServletRequest("POST", "/items"), response,
              (req, resp) -> ConsistencyScope.current().advance(GtidSet.parse(A + ":3")));
          Cookie cookie = response.getCookie("RYOW_TOKEN");
          assertThat(cookie).isNotNull();
          assertThat(cookie.getAttribute("SameSite")).as("empty: none").isNull();
          assertThat(cookie.getMaxAge()).isEqualTo(60);
        });
  }

  private static void assertFailure(AssertableWebApplicationContext context, String message) {
    assertThat(context).hasFailed();
    assertThat(rootMessages(context)).contains(message);
  }

  private static String rootMessages(AssertableWebApplicationContext context) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }

  @Test
  void theFilterCarriesASignedTokenInACookieByDefault() throws Exception {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.token-key=" + KEY).run(context -> {
      RyowConsistencyFilter filter = filter(context);
      MockHttpServletResponse response = new MockHttpServletResponse();
      AtomicReference<ConsistencyMode> mode = new AtomicReference<>();
      filter.doFilter(new MockHttpServletRequest("POST", "/items"), response, (req, resp) -> {
        mode.set(ConsistencyScope.current().mode());
        ConsistencyScope.current().advance(GtidSet.parse(A + ":1-7"));
      });
      assertThat(mode.get()).isEqualTo(ConsistencyMode.JVM);
      assertThat(response.getHeader(RyowConsistencyFilter.DEFAULT_HEADER)).as("cookie transport: no header").isNull();
      Cookie cookie = response.getCookie("RYOW_TOKEN");
      assertThat(cookie).isNotNull();
      assertThat(cookie.getPath()).isEqualTo("/");
      assertThat(cookie.isHttpOnly()).isTrue();
      assertThat(cookie.getSecure()).isFalse();
      assertThat(cookie.getMaxAge()).isEqualTo(300);
      assertThat(cookie.getAttribute("SameSite")).isEqualTo("Lax");
      String token = URLDecoder.decode(cookie.getValue(), StandardCharsets.US_ASCII);
      assertThat(TokenCodec.of(2048, 64, KEY).decode(token)).isEqualTo(GtidSet.parse(A + ":1-7"));

      // The next request, on any instance, brings the cookie back and reads inside a scope with those writes.
      MockHttpServletRequest next = new MockHttpServletRequest("GET", "/items");
      next.setCookies(cookie);
      AtomicReference<Position> seen = new AtomicReference<>();
      filter.doFilter(next, new MockHttpServletResponse(), (req, resp) -> seen.set(ConsistencyScope.current().gtids()));
      assertThat(seen.get()).isEqualTo(GtidSet.parse(A + ":1-7"));

      MockHttpServletRequest forged = new MockHttpServletRequest("GET", "/items");
      forged.setCookies(new Cookie("RYOW_TOKEN", A + ":1-99"));
      filter.doFilter(forged, new MockHttpServletResponse(), (req, resp) -> seen.set(ConsistencyScope.current().gtids()));
      assertThat(seen.get()).as("an unsigned token is dropped").isEqualTo(GtidSet.EMPTY);
    });
  }

  @Test
  void theTokenCanTravelInAHeaderAndTheCookieIsConfigurable() throws Exception {
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.web.transport=header", "ryow.web.header-name=X-Token")
        .run(context -> {
          MockHttpServletResponse response = new MockHttpServletResponse();
          filter(context).doFilter(new MockHttpServletRequest("POST", "/items"), response,
              (req, resp) -> ConsistencyScope.current().advance(GtidSet.parse(A + ":3")));
          assertThat(response.getHeader("X-Token")).isEqualTo(A + ":3");
          assertThat(response.getCookies()).isEmpty();
        });
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.web.cookie.name=T", "ryow.web.cookie.path=/app",
            "ryow.web.cookie.secure=true", "ryow.web.cookie.http-only=false", "ryow.web.cookie.same-site=Strict",
            "ryow.web.cookie.max-age=90s", "ryow.consistency=connection")
        .run(context -> {
          MockHttpServletResponse response = new MockHttpServletResponse();
          AtomicReference<ConsistencyMode> mode = new AtomicReference<>();
          filter(context).doFilter(new MockHttpServletRequest("POST", "/items"), response, (req, resp) -> {
            mode.set(ConsistencyScope.current().mode());
            ConsistencyScope.current().advance(GtidSet.parse(A + ":3"));
          });
          assertThat(mode.get()).as("connection mode would ignore the request's token").isEqualTo(ConsistencyMode.SCOPE);
          Cookie cookie = response.getCookie("T");
          assertThat(cookie).isNotNull();
          assertThat(cookie.getPath()).isEqualTo("/app");
          assertThat(cookie.getSecure()).isTrue();
          assertThat(cookie.isHttpOnly()).isFalse();
          assertThat(cookie.getAttribute("SameSite")).isEqualTo("Strict");
          assertThat(cookie.getMaxAge()).isEqualTo(90);
        });
  }

  private static RyowConsistencyFilter filter(AssertableWebApplicationContext context) {
    return (RyowConsistencyFilter) context.getBean(RyowWebAutoConfiguration.FILTER_NAME, FilterRegistrationBean.class)
        .getFilter();
  }

  @Test
  void eachPartSwitchesOffByItsProperty() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.web.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RyowWebAutoConfiguration.FILTER_NAME)
            .hasSingleBean(RyowMeterBinder.class));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.metrics.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RyowMeterBinder.class)
            .hasBean(RyowWebAutoConfiguration.FILTER_NAME));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "management.health.ryow.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("ryowHealthIndicator")
            .hasSingleBean(RyowInfoContributor.class));
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "management.info.ryow.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RyowInfoContributor.class)
            .hasBean("ryowHealthIndicator"));
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.datasource.enabled=false", "ryow.wait-timeout=250")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowDataSourceSettingsPostProcessor.class);
          assertThat(context.getBean(HikariDataSource.class).getDataSourceProperties()).isEmpty();
        });
  }

  @Test
  void theApplicationsOwnBeansWin() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL).withUserConfiguration(OwnBeans.class)
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowWebAutoConfiguration.FILTER_NAME);
          assertThat(context.getBeansOfType(FilterRegistrationBean.class)).containsOnlyKeys("myFilter");
          assertThat(context.getBean(RyowMeterBinder.class)).isSameAs(context.getBean("myMeters"));
          assertThat(context.getBean(RyowInfoContributor.class)).isSameAs(context.getBean("myInfo"));
          assertThat(context.getBean("ryowHealthIndicator")).isEqualTo("mine");
        });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBeans {
    @Bean
    FilterRegistrationBean<RyowConsistencyFilter> myFilter() {
      return new FilterRegistrationBean<>(new RyowConsistencyFilter());
    }

    @Bean
    RyowMeterBinder myMeters() {
      return new RyowMeterBinder("mine", () -> dev.ryow.jdbc.metrics.MetricsSnapshot.EMPTY);
    }

    @Bean
    RyowInfoContributor myInfo(RyowSettings settings) {
      return new RyowInfoContributor(settings);
    }

    @Bean
    String ryowHealthIndicator() {
      return "mine";
    }
  }

  @Test
  void theMetersReadTheClusterWithoutConnecting() {
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL).run(context -> {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      context.getBean(RyowMeterBinder.class).bindTo(registry);
      assertThat(registry.get("ryow.replicas").tag("rotation", "in").tag("cluster", "127.0.0.1:1").gauge().value()).isZero();
      assertThat(registry.get("ryow.reads").tag("server", "replica").functionCounter().count()).isZero();
    });
  }

  @Test
  void theInfoContributorDescribesTheConfiguration() {
    StarterContexts.web()
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.cluster-name=shop", "ryow.consistency=latest")
        .run(context -> {
          Info.Builder builder = new Info.Builder();
          context.getBean(RyowInfoContributor.class).contribute(builder);
          assertThat(builder.build().getDetails().get("ryow")).isEqualTo(Map.of(
              "driverVersion", RyowDriver.VERSION,
              "cluster", "shop",
              "primary", "127.0.0.1:1",
              "replicas", java.util.List.of("127.0.0.1:2"),
              "consistency", "latest",
              "tokensSigned", false));
        });
  }
}
