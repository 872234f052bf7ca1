package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parameters recorded once and replayed, in order, onto whichever physical statement runs the execution. */
class ParameterRecorderTest {
  private final List<String> calls = new ArrayList<>();
  private final PreparedStatement target = (PreparedStatement) Proxy.newProxyInstance(
      ParameterRecorderTest.class.getClassLoader(), new Class<?>[] {PreparedStatement.class},
      (self, m, args) -> {
        calls.add(m.getName() + Arrays.toString(args));
        return null;
      });

  private List<String> replayed(ParameterRecorder r) throws SQLException {
    calls.clear();
    r.replay(target);
    return calls;
  }

  @Test
  void primitivesAloneAndThenObjectsReplayInOrderAcrossGrowth() throws SQLException {
    ParameterRecorder r = new ParameterRecorder();
    assertThat(replayed(r)).isEmpty();
    r.setLong(1, 7L);
    r.setInt(2, 8);
    assertThat(replayed(r)).containsExactly("setLong[1, 7]", "setInt[2, 8]");
    r.setString(6, "six");
    r.setBigDecimal(3, new BigDecimal("3.5"));
    r.setNull(9, Types.VARCHAR);
    assertThat(replayed(r)).containsExactly("setLong[1, 7]", "setInt[2, 8]", "setBigDecimal[3, 3.5]",
        "setString[6, six]", "setNull[9, 12]");
  }

  @Test
  void aParameterSetAgainAsAPrimitiveForgetsItsObject() throws SQLException {
    ParameterRecorder r = new ParameterRecorder();
    r.setString(1, "first");
    r.setLong(1, 5L);
    r.setNull(2, Types.VARCHAR, "VARCHAR");
    r.setBoolean(2, true);
    assertThat(replayed(r)).containsExactly("setLong[1, 5]", "setBoolean[2, true]");
    ParameterRecorder copy = r.copy();
    r.clear();
    assertThat(replayed(r)).isEmpty();
    assertThat(replayed(copy)).containsExactly("setLong[1, 5]", "setBoolean[2, true]");
  }
}
