package dev.ryow.spring.boot;

import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code ryow} health indicator on Spring Boot 4 ({@link RyowHealthIndicator}).
 * {@code management.health.ryow.enabled=false} switches it off; a bean named {@code ryowHealthIndicator}
 * or {@code ryowHealthContributor} replaces it.
 */
@AutoConfiguration(
    after = RyowAutoConfiguration.class,
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnBean(DataSource.class)
@ConditionalOnEnabledHealthIndicator("ryow")
public class RyowHealthAutoConfiguration {
  /** Created by Spring. */
  public RyowHealthAutoConfiguration() {}

  /** The indicator, shown as {@code ryow} in {@code /actuator/health}. */
  @Bean
  @ConditionalOnMissingBean(name = {"ryowHealthIndicator", "ryowHealthContributor"})
  RyowHealthIndicator ryowHealthIndicator(ObjectProvider<DataSource> dataSource, RyowSettings settings) {
    return new RyowHealthIndicator(new RyowHealthCheck(dataSource, settings));
  }
}
