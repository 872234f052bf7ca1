package dev.ryow.spring.boot;

import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** The {@code ryow} health indicator on Spring Boot 4 (see {@link RyowHealthCheck}). */
public final class RyowHealthIndicator extends AbstractHealthIndicator {
  private final RyowHealthCheck check;

  /** An indicator that runs {@code check}. */
  public RyowHealthIndicator(RyowHealthCheck check) {
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
