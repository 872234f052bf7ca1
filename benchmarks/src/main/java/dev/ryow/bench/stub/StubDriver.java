package dev.ryow.bench.stub;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * An in-process stand-in for Connector/J and the servers behind it (as HikariCP's benchmarks keep a
 * stub driver): connections that answer at once, without a network, so that what a wrapper adds
 * to each JDBC call can be measured in nanoseconds. Never registered with {@code DriverManager}.
 *
 * <p>One instance is one cluster: connections to {@code primaryAddress} are the primary, others
 * replicas. The primary gives each autocommit write (and each commit after writes) a new GTID of
 * one UUID and reports it to session-state listeners, as Connector/J does with
 * {@code session_track_gtids=OWN_GTID}; replicas have always executed everything
 * ({@code WAIT_FOR_EXECUTED_GTID_SET} answers 0 at once). The queries ryow sends itself (probe,
 * status poll, GTID capture) get answers of the right shape; every other query returns one row
 * {@code (42)}, or {@value #MANY_ROWS} rows for SQL that names {@code stub_rows}.
 */
public final class StubDriver implements Driver {
  /** The UUID of the primary's GTIDs. */
  public static final String PRIMARY_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  static final String REPLICA_UUID = "5a0f1d2e-71ca-11e1-9e33-c80aa9429563";
  /** Rows of a query that names {@code stub_rows}. */
  public static final int MANY_ROWS = 100;

  private final String primaryAddress;
  private final AtomicLong executed = new AtomicLong(1);

  /** A cluster whose primary is {@code primaryAddress} ({@code host:port}). */
  public StubDriver(String primaryAddress) {
    this.primaryAddress = primaryAddress;
  }

  /** The plain URL of one server, as ryow's Connector/J opener builds it. */
  public static String url(String address, String database) {
    return "jdbc:mysql://" + address + "/" + database;
  }

  /** A new GTID of the primary (one more transaction). */
  long nextGtid() {
    return executed.incrementAndGet();
  }

  /** {@code gtid_executed} of every server: the primary's transactions so far. */
  String executedText() {
    return PRIMARY_UUID + ":1-" + executed.get();
  }

  @Override
  public Connection connect(String url, Properties info) {
    if (!acceptsURL(url)) {
      return null;
    }
    String rest = url.substring("jdbc:mysql://".length());
    int slash = rest.indexOf('/');
    String address = slash < 0 ? rest : rest.substring(0, slash);
    String database = slash < 0 ? "" : rest.substring(slash + 1);
    int q = database.indexOf('?');
    if (q >= 0) {
      database = database.substring(0, q);
    }
    int colon = address.lastIndexOf(':');
    int port = colon < 0 ? 3306 : Integer.parseInt(address.substring(colon + 1));
    return new StubConnection(this, address.equals(primaryAddress), port, database);
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith("jdbc:mysql://");
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 0;
  }

  @Override
  public int getMinorVersion() {
    return 1;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("stub");
  }
}
