package dev.ryow.spring.boot.tests;

import static dev.ryow.spring.boot.tests.Servers.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flyway and Liquibase at Spring Boot startup, unchanged, on the driver's defaults: {@link ItemsApplication}
 * (own JVM) with three Flyway migrations (create, seed, alter and update) and a Liquibase changelog of
 * three change sets, both on the one {@code jdbc:ryow:} DataSource, started while every replica's applier
 * is blocked ({@code FLUSH TABLES WITH READ LOCK}, held until its first request is answered): no replica
 * has the new tables, and a migration tool that read its history or the schema from a replica would see
 * none of them.
 *
 * <p>The first instance applies all six, and its first request sees the migrated schema and data. A second
 * instance (another JVM) started after the replicas caught up applies nothing again. The schema histories
 * on the primary name each migration exactly once, successful; their locks (Flyway's {@code GET_LOCK},
 * Liquibase's lock-table {@code UPDATE}) ran on the primary only, counted by the servers' digests.
 *
 * <p>Not covered: a second instance starting while the replicas still lack the migrations. Under the block
 * the first instance's start takes long enough on this machine (30-40 s) that the replicas' lag passes
 * {@code ryow.maxReplicaLag} and they leave rotation, so such a start would run on the primary and prove
 * nothing about replica reads.
 */
class MigrationsIT {
  private static final List<String> TABLES =
      List.of("mig_plans", "mig_features", "ryow_flyway_history", "RYOW_LB_CHANGELOG", "RYOW_LB_LOCK");
  private static final List<ApplicationInstance> INSTANCES = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void freshSchema() throws Exception {
    for (String table : TABLES) {
      Servers.exec(PRIMARY_PORT, "DROP TABLE IF EXISTS " + table);
    }
    Servers.awaitReplicasCaughtUp();
  }

  @AfterAll
  static void stopInstances() {
    INSTANCES.forEach(ApplicationInstance::close);
  }

  private static ApplicationInstance start(String name) throws Exception {
    ApplicationInstance instance = ApplicationInstance.start(name, List.of(
        "--server.port=0",
        "--spring.datasource.url=" + Servers.ryowUrl(),
        "--spring.datasource.username=" + Servers.USER,
        "--spring.datasource.password=" + Servers.PASSWORD,
        "--spring.main.banner-mode=off",
        "--spring.flyway.enabled=true",
        "--spring.flyway.locations=classpath:db/ryow-flyway",
        "--spring.flyway.table=ryow_flyway_history",
        "--spring.flyway.baseline-on-migrate=true", // the shared test schema has other tables
        "--spring.flyway.baseline-version=0",
        "--spring.liquibase.enabled=true",
        "--spring.liquibase.change-log=classpath:db/ryow-liquibase.xml",
        "--spring.liquibase.database-change-log-table=RYOW_LB_CHANGELOG",
        "--spring.liquibase.database-change-log-lock-table=RYOW_LB_LOCK"));
    INSTANCES.add(instance);
    return instance;
  }

  @Test
  @SuppressWarnings("try") // the block is held by the try, not used in it
  void migrationsRunOnceAtStartupUnderBlockedAppliersAndTheFirstRequestSeesThem() throws Exception {
    String expected = "plans=3,prices=60,features=2,featurePlans=6@" + PRIMARY_PORT;
    long primaryLocks = Servers.statementsLike(PRIMARY_PORT, "GET_LOCK");
    long replicaLocks = Servers.replicaStatementsLike("GET_LOCK");
    long primaryLockUpdates = Servers.statementsLike(PRIMARY_PORT, "UPDATE%RYOW_LB_LOCK");
    long replicaLockUpdates = Servers.replicaStatementsLike("UPDATE%RYOW_LB_LOCK");
    String firstPage;
    String secondPage;
    boolean leftRotation;
    try (Servers.ApplierBlock block = new Servers.ApplierBlock()) {
      ApplicationInstance first = start("migrations-first");
      first.awaitPort(300);
      firstPage = get(first, "/migrated");
      leftRotation = first.output().contains("out of rotation");
    }
    Servers.awaitReplicasCaughtUp();
    ApplicationInstance second = start("migrations-second");
    second.awaitPort(300);
    secondPage = get(second, "/migrated");
    assertThat(second.output()).as("the second instance's Flyway found the schema up to date")
        .contains("Schema `ryow` is up to date. No migration necessary.");
    assertThat(second.output()).as("and its Liquibase the change log")
        .contains("Database is up to date, no changesets to execute");
    Thread.sleep(300); // performance_schema counts a statement just after the client has its result
    assertThat(Servers.replicaStatementsLike("GET_LOCK") - replicaLocks).as("Flyway's locks on the replicas").isZero();
    assertThat(Servers.replicaStatementsLike("UPDATE%RYOW_LB_LOCK") - replicaLockUpdates)
        .as("Liquibase's lock updates on the replicas").isZero();
    assertThat(Servers.statementsLike(PRIMARY_PORT, "GET_LOCK") - primaryLocks).as("Flyway's locks on the primary")
        .isGreaterThanOrEqualTo(2);
    assertThat(Servers.statementsLike(PRIMARY_PORT, "UPDATE%RYOW_LB_LOCK") - primaryLockUpdates)
        .as("Liquibase's lock updates on the primary (the first instance takes and frees it)").isGreaterThanOrEqualTo(2);
    System.out.println("MigrationsIT first request: " + firstPage + (leftRotation ? " (after a replica left rotation)"
        : " (replicas in rotation)") + ", second instance's first request: " + secondPage);
    assertThat(firstPage).as("the migrating instance's first request, under blocked appliers").isEqualTo(expected);
    assertThat(secondPage).as("the second instance's first request").startsWith("plans=3,prices=60,features=2,featurePlans=6@");
    assertThat(history("SELECT version, success FROM ryow_flyway_history WHERE type = 'SQL' ORDER BY installed_rank"))
        .containsExactly("1:1", "2:1", "3:1");
    assertThat(history("SELECT id, exectype FROM RYOW_LB_CHANGELOG ORDER BY orderexecuted"))
        .containsExactly("1:EXECUTED", "2:EXECUTED", "3:EXECUTED");
  }

  private String get(ApplicationInstance instance, String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(instance.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(instance.name() + " " + path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private static List<String> history(String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = Servers.plain(PRIMARY_PORT);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getString(1) + ":" + rs.getString(2));
      }
    }
    return rows;
  }
}
