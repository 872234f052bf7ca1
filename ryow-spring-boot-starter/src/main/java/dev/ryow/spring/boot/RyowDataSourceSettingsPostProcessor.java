package dev.ryow.spring.boot;

import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowDataSource;
import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowUrl;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Hands the driver settings from Spring configuration ({@link RyowDriverSettings}) to every
 * {@code HikariDataSource} (its data source properties, which Hikari passes to the driver) and
 * {@link RyowDataSource} whose URL is {@code jdbc:ryow:}, before the pool starts, and validates the
 * result with the driver, so that a bad setting fails the application at startup.
 */
public final class RyowDataSourceSettingsPostProcessor implements BeanPostProcessor, SmartInitializingSingleton {
  private static final Logger LOG = LoggerFactory.getLogger(RyowDataSourceSettingsPostProcessor.class);
  private static final boolean HIKARI_PRESENT =
      ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource", RyowDataSourceSettingsPostProcessor.class.getClassLoader());

  private final Environment environment;
  private @Nullable RyowDriverSettings settings;
  private final AtomicInteger configured = new AtomicInteger();

  /** A post-processor that binds the settings from {@code environment} when the first DataSource appears. */
  public RyowDataSourceSettingsPostProcessor(Environment environment) {
    this.environment = environment;
  }

  private RyowDriverSettings settings() {
    RyowDriverSettings s = settings;
    if (s == null) {
      s = RyowDriverSettings.bind(environment);
      settings = s;
    }
    return s;
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (HIKARI_PRESENT && Hikari.configure(bean, beanName, this)) {
      return bean;
    }
    if (bean instanceof RyowDataSource ryow && ryow.getUrl() != null && RyowUrl.accepts(ryow.getUrl())) {
      Properties properties = ryow.getProperties();
      apply(beanName, ryow.getUrl(), properties);
      properties.stringPropertyNames().forEach(k -> ryow.setProperty(k, properties.getProperty(k)));
    }
    return bean;
  }

  /** Adds the settings to {@code properties} and validates them with {@code url} as the driver will. */
  void apply(String beanName, String url, Properties properties) {
    String where = "DataSource bean '" + beanName + "'";
    try {
      settings().addTo(url, properties, where);
      RyowConfig.from(url, properties);
    } catch (IllegalStateException | ConfigException e) {
      throw new BeanInitializationException(e instanceof ConfigException ? where + ": " + e.getMessage() : e.getMessage(), e);
    }
    configured.incrementAndGet();
  }

  @Override
  public void afterSingletonsInstantiated() {
    RyowDriverSettings s = settings();
    if (configured.get() == 0 && !s.isEmpty()) {
      LOG.warn("The ryow.* settings {} in Spring configuration reached no DataSource: the starter hands them to"
          + " HikariDataSource (jdbcUrl) and RyowDataSource beans with a jdbc:ryow: URL. With another pool, put them in"
          + " the URL.", s.values().keySet());
    }
  }

  /** HikariCP, touched only when it is on the class path. */
  private static final class Hikari {
    private Hikari() {}

    static boolean configure(Object bean, String beanName, RyowDataSourceSettingsPostProcessor processor) {
      if (!(bean instanceof HikariDataSource hikari)) {
        return false;
      }
      String url = hikari.getJdbcUrl();
      if (url != null && RyowUrl.accepts(url)) {
        processor.apply(beanName, url, hikari.getDataSourceProperties());
      }
      return true;
    }
  }
}
