package dev.ryow.spring.boot;

import static dev.ryow.spring.boot.StarterContexts.URL;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/** The Spring Boot 3.5 health indicator (Spring Boot 4's has its own test in ryow-spring-boot-starter-tests). */
class Boot3HealthIndicatorTest {
  @Test
  void registeredOnBoot3AndDownWhileThePrimaryCannotBeReached() {
    assertThat(StarterContexts.boot4()).isFalse();
    // No failover search for a writable server among the unreachable hosts (ryow.failover-timeout, 30 s by default).
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.failover-timeout=0").run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(RyowBoot3HealthIndicator.class);
      assertThat(context.getBean("ryowHealthIndicator")).isInstanceOf(RyowBoot3HealthIndicator.class);
      HealthIndicator indicator = context.getBean("ryowHealthIndicator", HealthIndicator.class);
      Health health = indicator.health();
      assertThat(health.getStatus()).isEqualTo(Status.DOWN);
      assertThat(health.getDetails()).containsKey("error");
    });
  }
}
