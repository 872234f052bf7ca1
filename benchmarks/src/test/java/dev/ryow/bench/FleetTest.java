package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The fleet's capacity: the busiest server against its own CPU budget bounds the pages per second. */
class FleetTest {
  private static final double NONE = Double.NaN;

  @Test
  void theServerThatSpendsTheLargestShareOfItsBudgetPerPageBoundsTheFleet() {
    // Primary 1.0 ms per page on 0.5 CPU: 500 pages/s; each replica 0.8 ms on 0.5 CPU: 625 pages/s.
    double[] ms = {1.0, 0.8, 0.8};
    double[] half = {0.5, 0.5, 0.5};
    assertThat(Fleet.busiest(ms, half)).isZero();
    assertThat(Fleet.capacity(ms, half)).isCloseTo(500, within(1e-9));
    // A replica on a smaller budget becomes the bound though it spends less: 0.8 ms on 0.25 CPU, 312.5 pages/s.
    double[] smaller = {0.5, 0.25, 0.5};
    assertThat(Fleet.busiest(ms, smaller)).isEqualTo(1);
    assertThat(Fleet.capacity(ms, smaller)).isCloseTo(312.5, within(1e-9));
  }

  @Test
  void serversWithoutABudgetOrAFigureDoNotBoundItAndNoneBoundedMeansNoBound() {
    assertThat(Fleet.capacity(new double[] {2.0, 0.8, NONE}, new double[] {NONE, 0.5, 0.5}))
        .isCloseTo(625, within(1e-9));
    assertThat(Fleet.capacity(new double[] {1.0, 1.0}, new double[] {NONE, NONE})).isNaN();
    assertThat(Fleet.busiest(new double[] {0, 0}, new double[] {0.5, 0.5})).isEqualTo(-1);
    assertThat(Fleet.capacity(new double[0], new double[0])).isNaN();
    assertThat(Fleet.budgetText(0.5)).isEqualTo("0.50 CPU");
    assertThat(Fleet.budgetText(NONE)).isEqualTo("host");
  }

  @Test
  void oneReplicaAtATimeCarriesEveryReplicaReadAndItsOwnApply() {
    double[] half = {0.5, 0.5, 0.5};
    // Replicas 2.4 ms/page each, of which 0.8 is applying: one home carries 2.4 + 2.4 - 0.8 = 4.0 ms per page.
    assertThat(Fleet.oneHomeCapacity(new double[] {0.8, 2.4, 2.4}, half, 0.8)).isCloseTo(125, within(1e-9));
    // Three replicas: 1.2 + 1.2 + 1.2 - 2 × 0.4 = 2.8 ms per page.
    assertThat(Fleet.oneHomeCapacity(new double[] {0.5, 1.2, 1.2, 1.2}, new double[] {1, 1, 1, 1}, 0.4))
        .isCloseTo(1000 / 2.8, within(1e-9));
    // The primary bounds it when it is the busier one.
    assertThat(Fleet.oneHomeCapacity(new double[] {5.0, 1.0, 1.0}, half, 0.5)).isCloseTo(100, within(1e-9));
    assertThat(Fleet.oneHomeCapacity(new double[] {1.0, 1.0, 1.0}, half, Double.NaN)).isNaN();
    assertThat(Fleet.oneHomeCapacity(new double[] {1.0}, new double[] {0.5}, 0.5)).isNaN();
  }
}
