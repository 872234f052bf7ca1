package dev.ryow.spring.boot;

import dev.ryow.jdbc.RyowDriver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * The core of the starter, active when {@code spring.datasource.url} is {@code jdbc:ryow:}: the validated
 * {@link RyowSettings}, and the post-processor that hands the {@code ryow.*} driver settings from Spring
 * configuration to the DataSource ({@code ryow.datasource.enabled=false} switches that off).
 */
@AutoConfiguration
@Conditional(OnRyowUrlCondition.class)
@EnableConfigurationProperties(RyowStarterProperties.class)
public class RyowAutoConfiguration {
  /** Created by Spring. */
  public RyowAutoConfiguration() {}

  /** Hands the driver settings to the DataSource; static: it post-processes beans. */
  @Bean
  @ConditionalOnProperty(prefix = "ryow.datasource", name = "enabled", matchIfMissing = true)
  static RyowDataSourceSettingsPostProcessor ryowDataSourceSettingsPostProcessor(Environment environment) {
    return new RyowDataSourceSettingsPostProcessor(environment);
  }

  /** The application's {@code jdbc:ryow:} configuration, validated by the driver (fails startup if invalid). */
  @Bean
  @ConditionalOnMissingBean
  RyowSettings ryowSettings(Environment environment) {
    RyowSettings settings = RyowSettings.from(environment, RyowDriverSettings.bind(environment));
    org.slf4j.LoggerFactory.getLogger(RyowAutoConfiguration.class)
        .debug("ryow-jdbc {} for cluster {}: consistency {}, tokens {}", RyowDriver.VERSION, settings.clusterName(),
            settings.consistency(), settings.tokensSigned() ? "signed" : "unsigned");
    return settings;
  }
}
