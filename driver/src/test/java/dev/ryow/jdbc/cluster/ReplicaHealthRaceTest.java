package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.server.ConnectorJ;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many threads report the same replica unreachable at once (the poller and every application thread
 * that sees a failure do): one of them takes it out of rotation, and only that one counts and logs it;
 * the backoff doubles once; a reader of the JMX view never sees a health with another change's problem.
 * Each round starts the threads together (they spin on one volatile gate) and waits for all of them
 * and for a JMX read made during the round. Nothing is timed: every thread reports its failure at the
 * round's instant (the test's clock), so however late the scheduler runs a thread, its failure is one
 * seen before the next probe is due.
 */
class ReplicaHealthRaceTest {
  private static final int THREADS = 16;
  private static final int ROUNDS = 200;
  private static final String CLUSTER = "health-race";
  private static final String REPLICA = "r1:3307";

  /** The test's clock: the instant of the current round's failures ({@link System#nanoTime()} units). */
  private volatile long roundNanos;
  private volatile int gate = -1;
  private volatile int readInRound = -1;
  private volatile boolean stop;
  private final AtomicInteger finished = new AtomicInteger();
  private final ConcurrentLinkedQueue<String> torn = new ConcurrentLinkedQueue<>();
  private final List<Thread> threads = new ArrayList<>();

  @AfterEach
  void stopThreads() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join();
    }
    RecordingLogProvider.stop();
  }

  @Test
  void ofManyThreadsMarkingOneReplicaUnreachableOneMakesTheTransitionAndCountsAndLogsIt() throws Exception {
    Properties p = new Properties();
    p.setProperty("ryow.clusterName", CLUSTER);
    Cluster cluster = new Cluster(RyowConfig.from("jdbc:ryow:mysql://p:3306," + REPLICA + "/db", p), new ConnectorJ());
    ReplicaEndpoint r1 = cluster.servers().get(1);
    MBeanServer jmx = MBeanServerFactory.newMBeanServer();
    ObjectName mbean = ClusterMBeans.register(cluster, jmx);
    assertThat(mbean).isNotNull();

    for (int k = 0; k < THREADS; k++) {
      int id = k;
      threads.add(new Thread(() -> {
        for (int round = 0; round < ROUNDS && !stop; round++) {
          for (int spins = 0; gate < round && !stop; spins++) {
            if (spins < 10_000) {
              Thread.onSpinWait();  // the threads that run now start within nanoseconds of each other
            } else {
              Thread.yield();  // 2 cores, 17 threads: let the others reach the gate
            }
          }
          cluster.members().unreachable(r1, "t" + id + " round " + round, roundNanos);
          finished.incrementAndGet();
        }
      }, "unreachable-" + k));
    }
    threads.add(new Thread(() -> {
      while (!stop) {
        int round = gate;
        try {
          checkJmxRow(jmx, mbean);
        } catch (Exception e) {
          torn.add(e.toString());
        }
        checkState(r1.healthState());
        readInRound = round;
      }
    }, "jmx-reader"));
    RecordingLogProvider.start();
    threads.forEach(Thread::start);

    long failures = cluster.metrics().snapshot().replicaFailures();
    for (int round = 0; round < ROUNDS; round++) {
      cluster.health(r1, Health.UP, 0, "");  // the poller found it back
      assertThat(up(r1.healthState())).as("back up: %s", r1.healthState()).isTrue();
      RecordingLogProvider.drain("");
      long at = 1_000_000_000_000L + round * 10 * HealthState.MAX_BACKOFF_NANOS;
      roundNanos = at;
      gate = round;
      while (finished.get() < THREADS * (round + 1) || readInRound < round) {
        Thread.yield();
      }

      long now = cluster.metrics().snapshot().replicaFailures();
      assertThat(now - failures).as("round %d: transitions counted", round).isEqualTo(1);
      failures = now;
      assertThat(RecordingLogProvider.drain("[" + CLUSTER + "] replica " + REPLICA + " out of rotation"))
          .as("round %d: departures logged", round).hasSize(1);
      HealthState s = r1.healthState();
      assertThat(s.health()).isEqualTo(Health.UNREACHABLE);
      assertThat(s.problem()).as("one thread's reason").matches("t\\d+ round " + round);
      assertThat(s.backoffNanos()).as("round %d: backoff doubled once", round)
          .isEqualTo(2 * HealthState.FIRST_BACKOFF_NANOS);
      assertThat(s.probeAtNanos()).as("round %d: probe due one first backoff after the failure", round)
          .isEqualTo(at + HealthState.FIRST_BACKOFF_NANOS);
      checkJmxRow(jmx, mbean);
      assertThat(torn).as("round %d: torn reads", round).isEmpty();
    }
  }

  /** The JMX view's row for the replica: UP with no problem, or UNREACHABLE with one thread's reason. */
  private void checkJmxRow(MBeanServer jmx, ObjectName mbean) throws Exception {
    TabularData table = (TabularData) jmx.getAttribute(mbean, "Replicas");
    CompositeData row = table.get(new Object[] {REPLICA});
    String health = (String) row.get("Health");
    String problem = (String) row.get("Problem");
    if (!(health.equals("UP") && problem.isEmpty())
        && !(health.equals("UNREACHABLE") && problem.matches("t\\d+ round \\d+"))) {
      torn.add("JMX: " + health + " with problem '" + problem + "'");
    }
  }

  /** In rotation as a recovery leaves it: no problem, the backoff back to its first step. */
  private static boolean up(HealthState s) {
    return s.health() == Health.UP && s.problem().isEmpty() && s.backoffNanos() == HealthState.FIRST_BACKOFF_NANOS;
  }

  /** The state itself: UP as reset, or UNREACHABLE after one failure since (backoff doubled once). */
  private void checkState(HealthState s) {
    boolean out = s.health() == Health.UNREACHABLE && s.problem().matches("t\\d+ round \\d+")
        && s.backoffNanos() == 2 * HealthState.FIRST_BACKOFF_NANOS;
    if (!up(s) && !out) {
      torn.add("state: " + s);
    }
  }
}
