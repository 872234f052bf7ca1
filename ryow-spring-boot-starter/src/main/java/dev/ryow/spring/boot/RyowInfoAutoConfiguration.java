package dev.ryow.spring.boot;

import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code ryow} info contributor ({@link RyowInfoContributor}) when Actuator is present.
 * {@code management.info.ryow.enabled=false} switches it off; a {@link RyowInfoContributor} bean of the
 * application replaces it.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.info.InfoContributor")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnEnabledInfoContributor("ryow")
public class RyowInfoAutoConfiguration {
  /** Created by Spring. */
  public RyowInfoAutoConfiguration() {}

  /** The contributor. */
  @Bean
  @ConditionalOnMissingBean
  RyowInfoContributor ryowInfoContributor(RyowSettings settings) {
    return new RyowInfoContributor(settings);
  }
}
