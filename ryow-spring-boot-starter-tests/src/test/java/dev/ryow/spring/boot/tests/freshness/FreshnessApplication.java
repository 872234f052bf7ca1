package dev.ryow.spring.boot.tests.freshness;

import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.spring.boot.AllowStale;
import dev.ryow.spring.boot.FreshRead;
import dev.ryow.spring.boot.ReadYourWrites;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * An application as a Spring user writes it: the starter on the class path, {@code spring.datasource.url} a
 * {@code jdbc:ryow:} URL with no {@code ryow.*} setting, and the three per-call annotations on a service.
 * Each read returns the value, the {@code @@port} of the server that answered, and the driver's report of
 * where it ran.
 */
@SpringBootApplication
public class FreshnessApplication {
  /** One read: what it saw and where. */
  public record Read(@Nullable Integer value, int port, @Nullable ReadPlacement placement) {}

  /** The service: one method per annotation, and the same read in a read-only transaction. */
  @Service
  public static class Permissions {
    private final DataSource dataSource;

    Permissions(DataSource dataSource) {
      this.dataSource = dataSource;
    }

    /** The default, said explicitly. */
    @ReadYourWrites
    public Read readYourWrites(int id) throws SQLException {
      return read(id);
    }

    /** Not annotated: the default. */
    public Read unannotated(int id) throws SQLException {
      return read(id);
    }

    /** A security check: the latest, whoever wrote it. */
    @FreshRead
    public Read fresh(int id) throws SQLException {
      return read(id);
    }

    /** The same, in a read-only transaction (one replica, or the primary, for the whole transaction). */
    @FreshRead
    @Transactional(readOnly = true)
    public Read freshInReadOnlyTransaction(int id) throws SQLException {
      return read(id);
    }

    /** A dashboard: any replica lagging at most a minute. */
    @AllowStale(maxLagMillis = 60_000)
    public Read dashboard(int id) throws SQLException {
      return read(id);
    }

    /** A page that accepts only a little staleness. */
    @AllowStale(maxLagMillis = 50)
    public Read nearlyCurrent(int id) throws SQLException {
      return read(id);
    }

    private Read read(int id) throws SQLException {
      Connection c = DataSourceUtils.getConnection(dataSource);
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT (SELECT value FROM freshness_items WHERE id = ?), @@port")) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          int v = rs.getInt(1);
          Integer value = rs.wasNull() ? null : v;
          ReadReport report = c.unwrap(RyowConnection.class).lastRead();
          return new Read(value, rs.getInt(2), report == null ? null : report.placement());
        }
      } finally {
        DataSourceUtils.releaseConnection(c, dataSource);
      }
    }
  }
}
