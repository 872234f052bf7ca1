package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The health of an asynchronous replica after one poll ({@link ReplicaHealthRule}), row by row. */
class ReplicaHealthRuleTest {
  private static final String P = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final ReplicaHealthRule.Limits LIMITS = new ReplicaHealthRule.Limits(2_000_000_000L, 30_000, 100);

  /**
   * known: performance_schema readable; ch: channels; io, sql: threads running; err: last error; stopped: ms
   * seen stopped; direct: a position wait is eligible; ckpt: checkpoint period (ms); delay: SOURCE_DELAY (s);
   * lag: applier lag (ms).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // case | known | channels | io | sql | error | stopped ms | direct | checkpoint | delay | lag | health | why
    "healthy|true|1|true|true|''|0|true|0|0|0|UP|''",
    "no performance_schema|false|0|false|false|''|0|false|500|60|99999|UP|''",
    "no channel|true|0|true|true|''|0|true|0|0|0|REPLICATION_STOPPED|replicates from nobody",
    "applier stopped, grace|true|1|true|false|''|1500|true|0|0|0|PAUSED|applier (SQL thread) not running",
    "applier stopped, past grace|true|1|true|false|''|2500|true|0|0|0|REPLICATION_STOPPED|"
        + "applier (SQL thread) not running for more than ryow.applierStopGrace=2000 ms",
    "both stopped|true|1|false|false|''|2500|true|0|0|0|REPLICATION_STOPPED|receiver (IO thread) not running, applier",
    "error|true|1|true|false|boom|0|true|0|0|0|REPLICATION_ERROR|applier (SQL thread) not running: boom",
    "chained, no GTIDs|true|1|true|true|''|0|false|0|0|0|INDIRECT|without GTIDs, not direct",
    "stopped beats indirect|true|1|true|false|''|2500|false|0|0|0|REPLICATION_STOPPED|applier",
    "checkpoint 300 ms|true|1|true|true|''|0|true|300|0|0|CHECKPOINTED|"
        + "without GTIDs, its multithreaded applier reports positions only every replica_checkpoint_period=300 ms",
    "checkpoint = wait timeout|true|1|true|true|''|0|true|100|0|0|CHECKPOINTED|without GTIDs",
    "checkpoint 10 ms|true|1|true|true|''|0|true|10|0|0|UP|''",
    "indirect beats checkpoint|true|1|true|true|''|0|false|300|0|0|INDIRECT|without GTIDs, not direct",
    "delayed|true|1|true|true|''|0|true|0|60|0|DELAYED|SOURCE_DELAY=60 s",
    "lagging|true|1|true|true|''|0|true|0|0|30001|LAGGING|applier lag 30001 ms > ryow.maxReplicaLag=30000",
    "lag at the bound|true|1|true|true|''|0|true|0|0|30000|UP|''",
  })
  void oneRowPerCase(String name, boolean known, int channels, boolean io, boolean sql, String error,
      long stoppedMillis, boolean direct, long checkpoint, long delay, long lag, Health health, String why) {
    ServerStatus status = new ServerStatus(P, GtidSet.EMPTY, GtidSet.EMPTY, true, channels, io, sql, lag, error, known,
        "", List.of(P), delay, checkpoint);
    PositionWaitRule positions = direct ? PositionWaitRule.ELIGIBLE : new PositionWaitRule(false, "not direct");
    ReplicaHealthRule h = ReplicaHealthRule.of(status, stoppedMillis * 1_000_000L, positions, LIMITS);
    assertThat(h.health()).isEqualTo(health);
    assertThat(h.why()).startsWith(why);
    assertThat(h.health().inRotation()).isEqualTo(h.why().isEmpty() || health == Health.PAUSED);
  }
}
