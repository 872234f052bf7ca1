package dev.ryow.spring.boot;

import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code ryow} health indicator on Spring Boot 3.5 ({@link RyowBoot3HealthIndicator}).
 * {@code management.health.ryow.enabled=false} switches it off; a bean named {@code ryowHealthIndicator}
 * or {@code ryowHealthContributor} replaces it.
 */
@AutoConfiguration(
    after = RyowAutoConfiguration.class,
    afterName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnBean(DataSource.class)
@ConditionalOnEnabledHealthIndicator("ryow")
public class RyowBoot3HealthAutoConfiguration {
  /** Created by Spring. */
  public RyowBoot3HealthAutoConfiguration() {}

  /** The indicator, shown as {@code ryow} in {@code /actuator/health}. */
  @Bean
  @ConditionalOnMissingBean(name = {"ryowHealthIndicator", "ryowHealthContributor"})
  RyowBoot3HealthIndicator ryowHealthIndicator(ObjectProvider<DataSource> dataSource, RyowSettings settings) {
    return new RyowBoot3HealthIndicator(new RyowHealthCheck(dataSource, settings));
  }
}
