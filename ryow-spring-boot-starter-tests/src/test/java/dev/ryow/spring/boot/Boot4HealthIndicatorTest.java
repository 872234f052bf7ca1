package dev.ryow.spring.boot;

import static dev.ryow.spring.boot.StarterContexts.URL;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/** The Spring Boot 4 health indicator (UP with details against real servers: TwoInstancesIT). */
class Boot4HealthIndicatorTest {
  @Test
  void registeredOnBoot4AndDownWhileThePrimaryCannotBeReached() {
    assertThat(StarterContexts.boot4()).isTrue();
    // No failover search for a writable server among the unreachable hosts (ryow.failover-timeout, 30 s by default).
    StarterContexts.web().withPropertyValues("spring.datasource.url=" + URL, "ryow.failover-timeout=0").run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(RyowHealthIndicator.class);
      assertThat(context.getBean("ryowHealthIndicator")).isInstanceOf(RyowHealthIndicator.class);
      Health health = context.getBean("ryowHealthIndicator", HealthIndicator.class).health();
      assertThat(health.getStatus()).isEqualTo(Status.DOWN);
      assertThat(health.getDetails()).containsKey("error");
    });
  }
}
