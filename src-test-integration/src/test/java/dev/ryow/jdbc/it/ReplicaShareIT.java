package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With no lag and two replicas, on defaults (monotonic reads, the JVM scope), both replicas serve the
 * reads: the home of the JVM's reads takes turns by poll round. Where each read ran is asked of the
 * server ({@code @@port}); reads never go backwards and never miss the thread's own write.
 *
 * <p>The bound comes from the rule, not the machine's speed: the test runs for at least ten poll rounds
 * (counted by the driver's polls), the turn moves at every round among replicas that are current, so the
 * reads in order of completion move from one replica to the other again and again: each replica serves
 * them in at least two separate stretches.
 */
class ReplicaShareIT {
  private static final int THREADS = 4;
  private static final int ROUNDS = 10;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_share", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @Test
  void bothReplicasServeReadsWithNoLagAndNoReadGoesBackwards() throws Exception {
    List<Integer> ports = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger ids = new AtomicInteger();
    AtomicLong stale = new AtomicLong();
    AtomicLong backward = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (Connection holder = Topology.ryowPolledOnce()) {
      RyowConnection r = holder.unwrap(RyowConnection.class);
      long pollsTarget = r.clusterMetrics().positionPolls() + (long) ROUNDS * (1 + REPLICA_PORTS.size());
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(pool.submit(() -> {
          try (Connection c = Topology.ryow();
              PreparedStatement write = c.prepareStatement("INSERT INTO it_share (id, v) VALUES (?, ?)");
              PreparedStatement own = c.prepareStatement("SELECT v, @@port FROM it_share WHERE id = ?");
              PreparedStatement max = c.prepareStatement("SELECT COALESCE(MAX(id), 0), @@port FROM it_share")) {
            int seen = 0;
            while (r.clusterMetrics().positionPolls() < pollsTarget) {
              int id = ids.incrementAndGet();
              write.setInt(1, id);
              write.setInt(2, id);
              write.executeUpdate();
              own.setInt(1, id);
              try (ResultSet rs = own.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != id) {
                  stale.incrementAndGet();
                } else {
                  ports.add(rs.getInt(2));
                }
              }
              for (int k = 0; k < 2; k++) {
                try (ResultSet rs = max.executeQuery()) {
                  rs.next();
                  int m = rs.getInt(1);
                  if (m < seen || m < id) {
                    backward.incrementAndGet();
                  }
                  seen = Math.max(seen, m);
                  ports.add(rs.getInt(2));
                }
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(300, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<Integer> order;
    synchronized (ports) {
      order = new ArrayList<>(ports);
    }
    int[] served = new int[REPLICA_PORTS.size()];
    int[] stretches = new int[REPLICA_PORTS.size()];
    int onPrimary = 0;
    int last = -1;
    for (int port : order) {
      int i = REPLICA_PORTS.indexOf(port);
      if (i < 0) {
        if (port == PRIMARY_PORT) {
          onPrimary++;
        }
        continue;
      }
      served[i]++;
      if (i != last) {
        stretches[i]++;
        last = i;
      }
    }
    System.out.printf("no lag, %d threads, %d+ poll rounds: %d reads; replica1 %d (%d stretches), replica2 %d"
            + " (%d stretches), primary %d; %d stale, %d backward%n",
        THREADS, ROUNDS, order.size(), served[0], stretches[0], served[1], stretches[1], onPrimary, stale.get(),
        backward.get());
    assertThat(stale.get()).as("reads that missed the thread's own write").isZero();
    assertThat(backward.get()).as("reads that showed less than an earlier read of the thread").isZero();
    for (int i = 0; i < served.length; i++) {
      assertThat(served[i]).as("reads served by replica port " + REPLICA_PORTS.get(i)).isPositive();
      assertThat(stretches[i]).as("separate stretches of reads on replica port " + REPLICA_PORTS.get(i))
          .isGreaterThanOrEqualTo(2);
    }
  }
}
