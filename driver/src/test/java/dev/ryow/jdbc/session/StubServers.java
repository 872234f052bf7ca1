package dev.ryow.jdbc.session;

import dev.ryow.jdbc.gtid.GtidSet;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Stub servers behind a stub {@link Driver}, for the session's unit tests: what {@code ConnectorJ}'s
 * driver seam opens instead of Connector/J. Each server answers the queries the driver sends itself
 * (probe, poll, position, capture, {@code GTID_SUBSET}, the wait) from its state, runs the
 * application's statements (recording them: the tests ask the stub server what it ran, not the
 * driver what it did), and can be scripted: down (connects and statements fail as a broken link),
 * read-only (writes refused with 1290), lagging (its executed set stops growing; waits time out), or
 * failing its next statement with a given exception. One GTID source for all writes: a write on
 * whichever server is writable takes the next number; servers that do not lag have all of them.
 * JDBC objects are dynamic proxies (a test helper: reflection never reaches the driver's main code).
 */
final class StubServers implements Driver {
  static final String SOURCE_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private final Map<String, Server> servers = new LinkedHashMap<>();
  private final AtomicLong written = new AtomicLong(10);

  /** One stub server per address ({@code host:port}), in URL order: the first is the primary. */
  StubServers(String... addresses) {
    for (int i = 0; i < addresses.length; i++) {
      servers.put(addresses[i], new Server(this, addresses[i], i));
    }
    for (Server s : servers.values()) {
      s.readOnly = s.index != 0;
    }
  }

  Server server(String address) {
    Server s = servers.get(address);
    if (s == null) {
      throw new IllegalArgumentException(address);
    }
    return s;
  }

  /** The GTIDs written so far. */
  String executedText(long upTo) {
    return upTo == 0 ? "" : SOURCE_UUID + ":1-" + upTo;
  }

  long written() {
    return written.get();
  }

  /** One stub server's scripted state and what it ran. */
  static final class Server {
    final StubServers cluster;
    final String address;
    final int index;
    final int port;
    final String uuid;
    volatile boolean down;
    volatile boolean readOnly;
    private volatile long lagsAt = -1;
    /** What {@code WAIT_FOR_EXECUTED_GTID_SET} answers when the server lacks the set: 1 (timed out) or null. */
    volatile Integer waitAnswerWhenLacking = 1;
    /** What it answers for {@code @@global.gtid_owned} (nothing owned by default). */
    volatile String owned = "";
    final ConcurrentLinkedQueue<SQLException> failNext = new ConcurrentLinkedQueue<>();
    final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    /** The isolation levels its connections were given ({@code setTransactionIsolation}), in order. */
    final List<Integer> isolations = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger waits = new AtomicInteger();
    final AtomicInteger connects = new AtomicInteger();
    /** Grows with each {@link #restart}: connections of an older one are dead. */
    final AtomicInteger generation = new AtomicInteger();

    Server(StubServers cluster, String address, int index) {
      this.cluster = cluster;
      this.address = address;
      this.index = index;
      this.port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      this.uuid = String.format(Locale.ROOT, "00000000-0000-0000-0000-%012d", port);
    }

    /** Its executed set stops growing (appliers blocked): waits for newer GTIDs time out. */
    void lag() {
      lagsAt = cluster.written();
    }

    void catchUp() {
      lagsAt = -1;
    }

    /**
     * A restart (after {@link #down}): it answers again, and every connection opened before fails its
     * next statement as a broken link, as a server that died closed them.
     */
    void restart() {
      generation.incrementAndGet();
      down = false;
    }

    long executed() {
      long l = lagsAt;
      return l >= 0 ? l : cluster.written();
    }

    /** How many application statements it ran. */
    int ran() {
      return ran.size();
    }

    @Override
    public String toString() {
      return address;
    }
  }

  // ---------------------------------------------------------------- Driver

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    String rest = url.substring("jdbc:mysql://".length());
    int slash = rest.indexOf('/');
    Server s = server(slash < 0 ? rest : rest.substring(0, slash));
    if (s.down) {
      throw linkFailure(s);
    }
    s.connects.incrementAndGet();
    // Also Connector/J's own connection interface: the driver asks it for the current database.
    return (Connection) Proxy.newProxyInstance(StubServers.class.getClassLoader(),
        new Class<?>[] {com.mysql.cj.jdbc.JdbcConnection.class}, new ConnectionHandler(s));
  }

  static SQLException linkFailure(Server s) {
    return new SQLNonTransientConnectionException("Communications link failure (stub " + s + " is down)", "08S01");
  }

  @Override
  public boolean acceptsURL(String url) {
    return url.startsWith("jdbc:mysql://");
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 26;
  }

  @Override
  public int getMinorVersion() {
    return 10;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("stub");
  }

  // ---------------------------------------------------------------- JDBC objects

  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(StubServers.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object defaultFor(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }

  private final class ConnectionHandler implements InvocationHandler {
    final Server server;
    final int generation;
    boolean closed;
    boolean autoCommit = true;
    boolean readOnly;
    String database = "app";

    ConnectionHandler(Server server) {
      this.server = server;
      this.generation = server.generation.get();
    }

    @Override
    public Object invoke(Object self, Method m, Object[] args) throws Throwable {
      switch (m.getName()) {
        case "createStatement":
          checkNotClosed(); // as Connector/J: no round trip, but refused on a closed connection
          return proxy(Statement.class, new StatementHandler(this, null));
        case "prepareStatement":
          checkNotClosed();
          return proxy(PreparedStatement.class, new StatementHandler(this, (String) args[0]));
        case "isClosed":
          return closed;
        case "close":
        case "abort":
          closed = true;
          return null;
        case "isValid":
          return !closed && !server.down;
        case "setAutoCommit":
          autoCommit = (Boolean) args[0];
          return null;
        case "getAutoCommit":
          return autoCommit;
        case "setReadOnly":
          readOnly = (Boolean) args[0];
          return null;
        case "isReadOnly":
          return readOnly;
        case "getCatalog":
        case "getSchema":
        case "getDatabase":
          return database;
        case "setDatabase":
        case "setCatalog":
          database = (String) args[0];
          return null;
        case "setTransactionIsolation":
          server.isolations.add((Integer) args[0]);
          return null;
        case "commit":
        case "rollback":
          check();
          server.ran.add(m.getName().toUpperCase(Locale.ROOT));
          return null;
        case "unwrap":
          if (((Class<?>) args[0]).isInstance(self)) {
            return self;
          }
          throw new SQLException("stub: not a wrapper for " + args[0]);
        case "isWrapperFor":
          return ((Class<?>) args[0]).isInstance(self);
        case "hashCode":
          return System.identityHashCode(self);
        case "equals":
          return self == args[0];
        case "toString":
          return "stub connection to " + server;
        default:
          return defaultFor(m.getReturnType());
      }
    }

    void check() throws SQLException {
      checkNotClosed();
      if (server.down || generation != server.generation.get()) {
        closed = true;
        throw linkFailure(server);
      }
    }

    void checkNotClosed() throws SQLException {
      if (closed) {
        throw new SQLNonTransientConnectionException("stub: connection closed", "08003");
      }
    }
  }

  private final class StatementHandler implements InvocationHandler {
    final ConnectionHandler connection;
    final String prepared;
    final Map<Integer, Object> parameters = new LinkedHashMap<>();
    ResultSet last;
    long updateCount = -1;

    StatementHandler(ConnectionHandler connection, String prepared) {
      this.connection = connection;
      this.prepared = prepared;
    }

    @Override
    public Object invoke(Object self, Method m, Object[] args) throws Throwable {
      String name = m.getName();
      if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer i
          && m.getDeclaringClass() == PreparedStatement.class) {
        parameters.put(i, args[1]);
        return null;
      }
      switch (name) {
        case "executeQuery":
          return query(args == null ? prepared : (String) args[0]);
        case "execute": {
          String sql = args == null ? prepared : (String) args[0];
          if (isQuery(sql)) {
            query(sql);
            return true;
          }
          update(sql);
          return false;
        }
        case "executeUpdate":
        case "executeLargeUpdate": {
          long n = update(args == null ? prepared : (String) args[0]);
          return name.equals("executeUpdate") ? (Object) (int) n : (Object) n;
        }
        case "getResultSet":
          return last;
        case "getUpdateCount":
          return (int) updateCount;
        case "getLargeUpdateCount":
          return updateCount;
        case "getMoreResults":
          last = null;
          updateCount = -1;
          return false;
        case "getConnection":
          return null;
        case "hashCode":
          return System.identityHashCode(self);
        case "equals":
          return self == args[0];
        case "toString":
          return "stub statement on " + connection.server;
        default:
          return defaultFor(m.getReturnType());
      }
    }

    private boolean isQuery(String sql) {
      String head = sql.stripLeading().toUpperCase(Locale.ROOT);
      return head.startsWith("SELECT") || head.startsWith("SHOW") || head.startsWith("WITH");
    }

    private ResultSet query(String sql) throws SQLException {
      Server s = connection.server;
      connection.check();
      Object[][] rows = ownQuery(s, sql);
      if (rows == null) {
        SQLException planned = s.failNext.poll();
        if (planned != null) {
          if (isConnectionClass(planned)) {
            connection.closed = true;
          }
          throw planned;
        }
        s.ran.add(sql);
        rows = new Object[][] {{s.port}};
      }
      updateCount = -1;
      last = proxy(ResultSet.class, new RowsHandler(rows));
      return last;
    }

    private boolean isConnectionClass(SQLException e) {
      return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /** The answer to a query the driver sends itself, or null for an application query. */
    private Object[][] ownQuery(Server s, String sql) throws SQLException {
      String executed = s.cluster.executedText(s.executed());
      if (sql.startsWith("SELECT @@global.gtid_mode")) {
        return new Object[][] {{"ON", "OWN_GTID", s.uuid, s.port, s.readOnly ? 1 : 0}};
      }
      if (sql.startsWith("SELECT @@server_uuid, @@global.gtid_owned")) {
        // uuid, owned, executed, read-only, channels, receivers off, appliers off, lag (us), error, group member state,
        // source uuids, source delay (s)
        return new Object[][] {{s.uuid, s.owned, executed, s.readOnly ? 1 : 0, s.index == 0 ? 0 : 1, 0, 0, 0L, null, null,
            null, 0L}};
      }
      if (sql.equals("SELECT @@global.gtid_executed")) {
        return new Object[][] {{executed}};
      }
      if (sql.equals("SELECT @@global.gtid_owned, @@global.gtid_executed")) {
        return new Object[][] {{s.owned, executed}};
      }
      if (sql.startsWith("SELECT MEMBER_ID, MEMBER_HOST")) {
        return new Object[0][]; // the stub servers are not group members
      }
      if (sql.equals("SELECT DATABASE()")) {
        return new Object[][] {{connection.database}};
      }
      if (sql.startsWith("SELECT GTID_SUBSET(")) {
        GtidSet wanted = GtidSet.parse(String.valueOf(parameters.get(1)));
        GtidSet has = executed.isEmpty() ? GtidSet.EMPTY : GtidSet.parse(executed);
        int readOnly = s.readOnly ? 1 : 0;
        if (has.contains(wanted)) {
          return new Object[][] {{1, "", wanted.toString(), readOnly}};
        }
        return new Object[][] {{0, wanted.toString(), "", readOnly}}; // tests use sets the stub has wholly or not at all
      }
      if (sql.startsWith("SELECT WAIT_FOR_EXECUTED_GTID_SET(")) {
        s.waits.incrementAndGet();
        GtidSet wanted = GtidSet.parse(String.valueOf(parameters.get(1)));
        ((BigDecimal) parameters.get(2)).signum();
        GtidSet has = executed.isEmpty() ? GtidSet.EMPTY : GtidSet.parse(executed);
        return new Object[][] {{has.contains(wanted) ? Integer.valueOf(0) : s.waitAnswerWhenLacking}};
      }
      return null;
    }

    private long update(String sql) throws SQLException {
      Server s = connection.server;
      connection.check();
      SQLException planned = s.failNext.poll();
      if (planned != null) {
        if (isConnectionClass(planned)) {
          connection.closed = true;
        }
        throw planned;
      }
      String head = sql.stripLeading().toUpperCase(Locale.ROOT);
      boolean writes = head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE");
      if (writes && s.readOnly) {
        throw new SQLException("The MySQL server is running with the --super-read-only option so it cannot execute"
            + " this statement", "HY000", 1290);
      }
      s.ran.add(sql);
      if (writes) {
        written.incrementAndGet();
      }
      last = null;
      updateCount = writes ? 1 : 0;
      return updateCount;
    }
  }

  private static final class RowsHandler implements InvocationHandler {
    final Object[][] rows;
    int row = -1;
    boolean wasNull;

    RowsHandler(Object[][] rows) {
      this.rows = rows;
    }

    @Override
    public Object invoke(Object self, Method m, Object[] args) throws InvocationTargetException {
      switch (m.getName()) {
        case "next":
          return ++row < rows.length;
        case "wasNull":
          return wasNull;
        case "getString":
        case "getInt":
        case "getLong":
        case "getBoolean":
        case "getObject": {
          Object v = rows[row][(Integer) args[0] - 1];
          wasNull = v == null;
          return switch (m.getName()) {
            case "getString" -> v == null ? null : String.valueOf(v);
            case "getInt" -> v == null ? 0 : ((Number) v).intValue();
            case "getLong" -> v == null ? 0L : ((Number) v).longValue();
            case "getBoolean" -> v != null && ((Number) v).intValue() != 0;
            default -> v;
          };
        }
        case "hashCode":
          return System.identityHashCode(self);
        case "equals":
          return self == args[0];
        default:
          return defaultFor(m.getReturnType());
      }
    }
  }
}
