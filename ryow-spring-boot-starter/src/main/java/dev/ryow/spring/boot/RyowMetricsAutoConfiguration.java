package dev.ryow.spring.boot;

import dev.ryow.jdbc.micrometer.RyowMeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Registers the driver's {@link RyowMeterBinder} when Micrometer is present: Spring Boot binds it to
 * every registry. Its meters read the cluster's counters without connecting (zero before the first
 * connection). {@code ryow.metrics.enabled=false} switches it off; a {@link RyowMeterBinder} bean of
 * the application replaces it.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.metrics", name = "enabled", matchIfMissing = true)
public class RyowMetricsAutoConfiguration {
  /** Created by Spring. */
  public RyowMetricsAutoConfiguration() {}

  /** The cluster's meters ({@code ryow.reads}, {@code ryow.waits}, {@code ryow.replicas}...), tagged with its name. */
  @Bean
  @ConditionalOnMissingBean
  RyowMeterBinder ryowMeterBinder(RyowSettings settings) {
    return new RyowMeterBinder(settings.clusterName(), settings::clusterMetrics);
  }
}
