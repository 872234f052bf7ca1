package dev.ryow.jdbc.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.RecordComponent;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RyowMeterBinderTest {

  /**
   * A registry shows one description per meter name (Spring Boot Actuator's {@code /metrics/ryow.reads}):
   * meters of one name that differ by a tag must carry the same one, true of their sum.
   */
  @Test
  void metersOfOneNameShareOneDescription() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new RyowMeterBinder("orders", new ClusterMetrics()::snapshot).bindTo(registry);
    java.util.Map<String, Set<String>> descriptions = new java.util.TreeMap<>();
    for (Meter m : registry.getMeters()) {
      descriptions.computeIfAbsent(m.getId().getName(), n -> new java.util.TreeSet<>())
          .add(String.valueOf(m.getId().getDescription()));
    }
    assertThat(descriptions).allSatisfy((name, texts) -> assertThat(texts).as(name).hasSize(1));
    assertThat(descriptions.get("ryow.reads")).singleElement().asString().contains("replica").contains("primary");
    assertThat(descriptions.get("ryow.replicas")).singleElement().asString().contains("in").contains("out");
  }

  @Test
  void everyMeterReadsTheCurrentSnapshot() {
    ClusterMetrics metrics = new ClusterMetrics();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new RyowMeterBinder("orders", metrics::snapshot).bindTo(registry);

    for (int i = 0; i < 7; i++) {
      metrics.replicaRead();
    }
    metrics.primaryRead();
    metrics.primaryWrite();
    metrics.primaryWrite();
    metrics.waited(3_000_000);
    metrics.waited(1_000_000);
    metrics.waitSkipped();
    metrics.waitTimedOut();
    metrics.fellBackToPrimary();
    metrics.replicaHealth(2, 1, 40, "r1=UP");

    assertThat(counter(registry, "ryow.reads", "server", "replica")).isEqualTo(7);
    assertThat(counter(registry, "ryow.reads", "server", "primary")).isEqualTo(1);
    assertThat(counter(registry, "ryow.writes", null, null)).isEqualTo(2);
    assertThat(counter(registry, "ryow.waits.skipped", null, null)).isEqualTo(1);
    assertThat(counter(registry, "ryow.waits.timed.out", null, null)).isEqualTo(1);
    assertThat(counter(registry, "ryow.fallbacks.to.primary", null, null)).isEqualTo(1);
    FunctionTimer waits = registry.get("ryow.waits").tag("cluster", "orders").functionTimer();
    assertThat(waits.count()).isEqualTo(2);
    assertThat(waits.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(4.0);
    assertThat(gauge(registry, "ryow.replicas", "rotation", "in")).isEqualTo(2);
    assertThat(gauge(registry, "ryow.replicas", "rotation", "out")).isEqualTo(1);
    assertThat(gauge(registry, "ryow.replica.lag.max", null, null)).isEqualTo(40);
    assertThat(registry.get("ryow.replica.lag.max").gauge().getId().getBaseUnit()).isEqualTo(BaseUnits.MILLISECONDS);
    assertThat(gauge(registry, "ryow.replica.share", null, null)).isEqualTo(7 / 8.0);
    assertThat(gauge(registry, "ryow.replica.no.wait.share", null, null)).isEqualTo(1 / 3.0);

    metrics.replicaRead();
    assertThat(counter(registry, "ryow.reads", "server", "replica")).as("read when asked").isEqualTo(8);
  }

  @Test
  void everyNumberOfTheSnapshotHasAMeterWithItsValue() throws Exception {
    ClusterMetrics metrics = new ClusterMetrics();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new RyowMeterBinder("c", metrics::snapshot).bindTo(registry);
    // Give every counter a distinct value, so that a meter wired to the wrong counter shows.
    Runnable[] bumps = {
      metrics::replicaRead, metrics::primaryRead, metrics::primaryWrite, () -> metrics.waited(1),
      metrics::waitSkipped, metrics::waitTimedOut, metrics::waitFailed, metrics::fellBackToPrimary,
      metrics::fallbackRejected, metrics::staleRead, metrics::staleAllowedRead, metrics::gtidQuery, metrics::gtidSubsetCheck,
      metrics::unknownGtidRead, metrics::waitCapped, metrics::outOfRotationSkipped, metrics::stalledSkipped,
      metrics::fallbackThrottled,
      metrics::positionPolled, metrics::positionReset, metrics::replicaFailed, metrics::replicaRecovered,
      metrics::readRetried, metrics::primaryReconnected, metrics::primaryFailedOver, metrics::lostGtidsForgotten
    };
    for (int i = 0; i < bumps.length; i++) {
      for (int j = 0; j <= i; j++) {
        bumps[i].run();
      }
    }
    metrics.replicaHealth(101, 102, 103, "");
    MetricsSnapshot snapshot = metrics.snapshot();

    Set<Double> published = new HashSet<>();
    for (Meter m : registry.getMeters()) {
      assertThat(m.getId().getTag("cluster")).isEqualTo("c");
      if (m instanceof FunctionCounter c) {
        published.add(c.count());
      } else if (m instanceof Gauge g) {
        published.add(g.value());
      } else if (m instanceof FunctionTimer t) {
        published.add(t.count());
        published.add(t.totalTime(TimeUnit.NANOSECONDS));
      }
    }
    for (RecordComponent component : MetricsSnapshot.class.getRecordComponents()) {
      if (component.getType() == long.class) {
        long value = (long) component.getAccessor().invoke(snapshot);
        assertThat(published).as(component.getName() + " = " + value).contains((double) value);
      }
    }
  }

  private static double counter(SimpleMeterRegistry registry, String name, String tag, String value) {
    var search = registry.get(name).tag("cluster", "orders");
    return (tag == null ? search : search.tag(tag, value)).functionCounter().count();
  }

  private static double gauge(SimpleMeterRegistry registry, String name, String tag, String value) {
    var search = registry.get(name).tag("cluster", "orders");
    return (tag == null ? search : search.tag(tag, value)).gauge().value();
  }
}
