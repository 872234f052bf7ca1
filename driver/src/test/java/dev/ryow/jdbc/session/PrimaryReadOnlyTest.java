package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link PrimaryReadOnly}: sequences of the calls that may change the read-only mode (the application's
 * {@code setReadOnly}, SQL, {@code isReadOnly()}, a write, a pool's reset, a reconnect) run once on a model
 * of one Connector/J connection and once through the rule in front of such a model, as {@link PrimaryLink}
 * and {@link Transactions} use it. What the application sees ({@code isReadOnly()}, a write's outcome)
 * must be the same, and Connector/J's flag on the physical connection must be the application's whenever
 * a statement runs there.
 *
 * <p>The model is what {@code ConnectionImpl} does with its defaults ({@code useLocalSessionState=false},
 * {@code readOnlyPropagatesToServer=true}): {@code setReadOnly} sets the flag and sends
 * {@code SET SESSION TRANSACTION …}; {@code isReadOnly()} asks the server; a write is refused by the flag
 * ({@code S1009}) before the server's session mode refuses it (1792). It is not a server: it models only
 * those two bits.
 */
class PrimaryReadOnlyTest {
  /** One Connector/J connection: its client-side flag and its server session's mode. */
  private static final class ConnectorJ {
    boolean flag;
    boolean session;
    int sets;

    void setReadOnly(boolean b) {
      flag = b;
      session = b;
      sets++;
    }

    String write() {
      return flag ? "S1009" : session ? "1792" : "ok";
    }
  }

  /** The session's side: the application's flag, the rule, and the physical connection behind it. */
  private static final class Driver {
    boolean wanted;
    PrimaryReadOnly link = PrimaryReadOnly.OPENED;
    ConnectorJ physical = new ConnectorJ();
    final List<String> violations = new ArrayList<>();

    void sync() {
      if (link.needsSync(wanted)) {
        physical.setReadOnly(wanted);
        link = PrimaryReadOnly.synced(wanted);
      }
      if (physical.flag != wanted) {
        violations.add("flag " + physical.flag + " where the application set " + wanted);
      }
    }

    void set(boolean b) {
      wanted = b;
      link = link.applicationSet(b);
    }

    void sql(boolean readOnly) {
      sync();
      physical.session = readOnly;
      link = link.sqlRan();
    }

    boolean isReadOnly() {
      Boolean known = link.answer(wanted);
      if (known != null) {
        return known;
      }
      sync();
      boolean s = physical.session;
      link = link.serverSaid(s);
      return s;
    }

    String write() {
      sync();
      return physical.write();
    }

    void reconnect() {
      physical = new ConnectorJ();
      link = PrimaryReadOnly.OPENED;
    }
  }

  /** Runs {@code steps} (space-separated) on Connector/J alone and through the rule; returns what each saw. */
  private static List<List<String>> run(String steps) {
    ConnectorJ plain = new ConnectorJ();
    Driver d = new Driver();
    List<String> seenPlain = new ArrayList<>();
    List<String> seenDriver = new ArrayList<>();
    for (String step : steps.trim().split("\\s+")) {
      switch (step) {
        case "ro+", "ro-", "reset" -> {
          // a pool's reset is the application's setReadOnly(false) (HikariCP's dirty bit)
          boolean b = step.equals("ro+");
          plain.setReadOnly(b);
          d.set(b);
        }
        case "sqlRO", "sqlRW" -> {
          boolean b = step.equals("sqlRO");
          plain.session = b;
          d.sql(b);
        }
        case "is" -> {
          seenPlain.add("is " + plain.session);
          seenDriver.add("is " + d.isReadOnly());
        }
        case "write" -> {
          seenPlain.add("write " + plain.write());
          seenDriver.add("write " + d.write());
        }
        case "reconnect" -> {
          // the driver replaces its physical connection; the application's connection keeps its flag, and
          // its session's mode follows the flag again, as on a new Connector/J connection given the flag
          boolean flag = plain.flag;
          plain = new ConnectorJ();
          plain.setReadOnly(flag);
          d.reconnect();
        }
        default -> throw new IllegalArgumentException(step);
      }
    }
    d.sync();
    assertThat(d.violations).as("the physical flag where a statement ran, for: " + steps).isEmpty();
    return List.of(seenPlain, seenDriver);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      # issue 42, item 1: isReadOnly() re-read the session's mode, then setReadOnly(false)
      ro+ sqlRW is ro- write                       | is false, write ok
      # the same through a pool: its reset is setReadOnly(false) on return
      ro+ sqlRW is reset write                     | is false, write ok
      # without setReadOnly(false), Connector/J's flag still refuses the write, as Connector/J alone does
      ro+ sqlRW is write                           | is false, write S1009
      ro+ sqlRW write                              | write S1009
      # SQL made the session read-only behind an unset flag: the server refuses, the flag does not
      sqlRO is write                               | is true, write 1792
      sqlRO is ro- write is                        | is true, write ok, is false
      sqlRO ro- is                                 | is false
      # the application's setReadOnly reaches the server although the flag already had the value
      ro+ sqlRW is ro+ is write                    | is false, is true, write S1009
      ro+ sqlRW ro+ is                             | is true
      # a reconnect gives the new connection the application's flag
      ro+ sqlRW is reconnect is write              | is false, is true, write S1009
      ro+ sqlRW is ro- reconnect write is          | is false, write ok, is false
      ro+ ro- write is                             | write ok, is false
      ro+ write is ro- sqlRO is ro+ ro- is write   | write S1009, is true, is true, is false, write ok
      """)
  void aSequenceAnswersAsConnectorJ(String steps, String expected) {
    List<List<String>> seen = run(steps);
    assertThat(seen.get(1)).as("through the rule").isEqualTo(seen.get(0));
    assertThat(String.join(", ", seen.get(0))).as("Connector/J alone (the model)").isEqualTo(expected.trim());
  }

  /** Every sequence of up to six steps: the same answers, and the flag agrees wherever a statement ran. */
  @Test
  void everyShortSequenceAnswersAsConnectorJ() {
    String[] alphabet = {"ro+", "ro-", "sqlRO", "sqlRW", "is", "write", "reconnect"};
    int sequences = 0;
    for (int length = 1; length <= 6; length++) {
      int[] digits = new int[length];
      while (true) {
        StringBuilder b = new StringBuilder();
        for (int digit : digits) {
          b.append(alphabet[digit]).append(' ');
        }
        List<List<String>> seen = run(b.toString());
        assertThat(seen.get(1)).as(b.toString()).isEqualTo(seen.get(0));
        sequences++;
        int i = 0;
        while (i < length && ++digits[i] == alphabet.length) {
          digits[i++] = 0;
        }
        if (i == length) {
          break;
        }
      }
    }
    assertThat(sequences).isEqualTo(7 + 49 + 343 + 2401 + 16807 + 117649);
  }

  /** No round trip for what is known: isReadOnly() asks the server only after SQL; setReadOnly is lazy. */
  @Test
  void theServerIsAskedOnlyAfterSql() {
    Driver d = new Driver();
    d.set(true);
    d.set(false);
    assertThat(d.isReadOnly()).isFalse();
    assertThat(d.physical.sets).as("no call reached Connector/J for a flag set back").isZero();
    d.sql(false);
    assertThat(d.link.answer(false)).as("after SQL only the server knows").isNull();
    assertThat(d.isReadOnly()).isFalse();
    assertThat(d.link.answer(false)).as("remembered until SQL runs again").isFalse();
    assertThat(PrimaryReadOnly.OPENED.applicationSet(false)).isSameAs(PrimaryReadOnly.OPENED);
  }
}
