package dev.ryow.spring.boot;

import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** The {@code ryow} health indicator on Spring Boot 3.5 (see {@link RyowHealthCheck}). */
public final class RyowBoot3HealthIndicator extends AbstractHealthIndicator {
  private final RyowHealthCheck check;

  /** An indicator that runs {@code check}. */
  public RyowBoot3HealthIndicator(RyowHealthCheck check) {
    super("jdbc:ryow: health check failed");
    this.check = Objects.requireNonNull(check, "check");
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    RyowHealthCheck.Result result = check.check();
    Exception error = result.error();
    if (error != null) {
      throw error;
    }
    (result.up() ? builder.up() : builder.down()).withDetails(result.details());
  }
}
