package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDriver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.datasource.pooled.PooledDataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MyBatis 3.5 with its own connection pool ({@code PooledDataSource}) over {@code jdbc:ryow:}, an
 * annotation-based mapper, nothing driver-specific in the mapping. Every row records the port of
 * the server that inserted it ({@code @@port} as a value) and every select returns the port of the
 * server that answered it.
 */
class MyBatisIT {
  private static final String TABLE = "it_mb_item";

  /** A row of {@code it_mb_item}; {@code servedBy} is the {@code @@port} of the server that ran the select. */
  public static final class Item {
    public Long id;
    public String name;
    public Integer writtenOn;
    public Integer servedBy;

    @SuppressWarnings("checkstyle:RedundantModifier") // MyBatis creates the rows through it by reflection
    public Item() {}

    Item(String name) {
      this.name = name;
    }
  }

  /** The mapper, as an application would write it. */
  public interface ItemMapper {
    @Insert("INSERT INTO it_mb_item (name, written_on) VALUES (#{name}, @@port)")
    @Options(useGeneratedKeys = true, keyProperty = "id")
    int insert(Item item);

    @Select("SELECT id, name, written_on AS writtenOn, @@port AS servedBy FROM it_mb_item WHERE id = #{id}")
    Item find(long id);

    @Select("SELECT LAST_INSERT_ID()")
    long lastInsertId();

    @Select("SELECT LAST_INSERT_ID() AS id, @@port AS port")
    Map<String, Object> lastInsertIdAndPort();

    @Select("SELECT COUNT(*) FROM it_mb_item WHERE name = #{name}")
    int countByName(String name);

    @Update("SET SESSION time_zone = #{zone}")
    void setTimeZone(String zone);

    @Update("SET SESSION sql_mode = 'ANSI_QUOTES'")
    void ansiQuotes();

    @Select("/* ryow:replica */ SELECT CONCAT(@@session.time_zone, ' ', @@session.sql_mode) AS setting, @@port AS port")
    Map<String, Object> sessionSettings();
  }

  private static PooledDataSource dataSource;
  private static SqlSessionFactory factory;

  @BeforeAll
  static void bootstrap() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE,
        "id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64) NOT NULL, written_on INT NOT NULL");
    dataSource = new PooledDataSource(RyowDriver.class.getName(), Topology.ryowUrl(), Topology.USER, Topology.PASSWORD);
    Configuration configuration = new Configuration(new Environment("it", new JdbcTransactionFactory(), dataSource));
    configuration.addMapper(ItemMapper.class);
    factory = new SqlSessionFactoryBuilder().build(configuration);
  }

  @AfterAll
  static void shutdown() throws SQLException {
    if (dataSource != null) {
      dataSource.forceCloseAll();
    }
    Topology.resumeAppliers();
  }

  @BeforeEach
  @AfterEach
  void appliersRunning() throws SQLException {
    Topology.resumeAppliers();
  }

  private static boolean plainReplicaHas(Connection plainReplica, long id) throws SQLException {
    // Schema-qualified, so that its digest is not counted with the mapper's select.
    try (PreparedStatement ps = plainReplica.prepareStatement(
        "SELECT COUNT(*) FROM " + Topology.DATABASE + "." + TABLE + " WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 1;
      }
    }
  }

  @Test
  void insertWithGeneratedKeysThenLastInsertIdAndSelectWhileAppliersArePaused() throws SQLException {
    Topology.pauseAppliers();
    ServerCounts lastInsertIds = ServerCounts.of("LAST_INSERT_ID");
    int rows = 20;
    try (SqlSession session = factory.openSession(true);
        Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      long previousId = 0;
      for (int i = 0; i < rows; i++) {
        Item item = new Item("paused-" + i);
        assertThat(mapper.insert(item)).isEqualTo(1);
        assertThat(item.id).as("generated key").isNotNull().isGreaterThan(previousId);
        previousId = item.id;
        assertThat(mapper.lastInsertId()).as("LAST_INSERT_ID() right after the insert").isEqualTo(item.id);
        Map<String, Object> withPort = mapper.lastInsertIdAndPort();
        assertThat(((Number) withPort.get("id")).longValue()).isEqualTo(item.id);
        assertThat(((Number) withPort.get("port")).intValue()).isEqualTo(PRIMARY_PORT);

        Item found = mapper.find(item.id);
        assertThat(found).as("select right after the insert, appliers stopped").isNotNull();
        assertThat(found.name).isEqualTo(item.name);
        assertThat(found.writtenOn).isEqualTo(PRIMARY_PORT);
        assertThat(found.servedBy).as("no replica has the row: the primary answered").isEqualTo(PRIMARY_PORT);
        assertThat(plainReplicaHas(plainReplica, item.id)).as("the lag is real").isFalse();
      }
      assertThat(session.getConnection().unwrap(RyowConnection.class).consistencyToken()).isNotEmpty();
    }
    ServerCounts ran = lastInsertIds.delta();
    System.out.printf("mybatis, appliers stopped: LAST_INSERT_ID() statements: %s%n", ran);
    assertThat(ran.primary()).isEqualTo(2L * rows);
    assertThat(ran.replicas()).isZero();
  }

  @Test
  void insertThenSelectUnderPulsedLagNeverStaleAndMostlyOnReplicas() throws SQLException {
    int rows = 120;
    int stale = 0;
    int wrongLastInsertId = 0;
    int plainStale = 0;
    int onReplica = 0;
    ServerCounts selects = ServerCounts.of("FROM `it_mb_item` WHERE");
    ServerCounts lastInsertIds = ServerCounts.of("LAST_INSERT_ID");
    LagPulse pulse = LagPulse.start(150, 500);
    try (SqlSession session = factory.openSession(true);
        Connection plainReplica = Topology.plain(REPLICA_PORTS.get(1))) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      for (int i = 0; i < rows; i++) {
        Item item = new Item("pulse-" + i);
        mapper.insert(item);
        if (!plainReplicaHas(plainReplica, item.id)) {
          plainStale++;
        }
        if (mapper.lastInsertId() != item.id) {
          wrongLastInsertId++;
        }
        Item found = mapper.find(item.id);
        if (found == null || !item.name.equals(found.name)) {
          stale++;
        } else if (REPLICA_PORTS.contains(found.servedBy)) {
          onReplica++;
        }
      }
    } finally {
      pulse.close();
    }
    ServerCounts servedSelects = selects.delta();
    ServerCounts servedLastInsertIds = lastInsertIds.delta();
    System.out.printf("mybatis, pulsed lag (150 ms of every 500 ms): %d insert+select, %d stale, %d wrong LAST_INSERT_ID(),"
            + " %d selects on replicas; plain replica stale %d; servers: %s; %s%n",
        rows, stale, wrongLastInsertId, onReplica, plainStale, servedSelects, servedLastInsertIds);
    assertThat(stale).isZero();
    assertThat(wrongLastInsertId).isZero();
    assertThat(plainStale).as("the pulsed lag must be visible to a plain replica connection").isPositive();
    assertThat(servedSelects.total()).isEqualTo(rows);
    assertThat(servedSelects.replicas()).isEqualTo(onReplica);
    // Under pulsed lag the share depends on the pulse (paused replicas are out of rotation): some, not a quota.
    assertThat(servedSelects.replicas()).as("selects after inserts served by replicas").isPositive();
    assertThat(servedLastInsertIds.primary()).isEqualTo(rows);
    assertThat(servedLastInsertIds.replicas()).isZero();
  }

  @Test
  void transactionalSessionRunsOnThePrimaryAndItsCommitIsVisibleAfterwards() throws SQLException {
    Topology.pauseAppliers();
    Item item = new Item("in-transaction");
    try (SqlSession session = factory.openSession()) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      mapper.insert(item);
      assertThat(mapper.lastInsertId()).isEqualTo(item.id);
      Item found = mapper.find(item.id);
      assertThat(found.servedBy).as("inside the transaction: the primary").isEqualTo(PRIMARY_PORT);
      session.commit();
    }
    try (SqlSession session = factory.openSession(true)) {
      Item found = session.getMapper(ItemMapper.class).find(item.id);
      assertThat(found).as("after the commit, appliers stopped").isNotNull();
      assertThat(found.servedBy).isEqualTo(PRIMARY_PORT);
    }
    Topology.resumeAppliers();
    try (SqlSession session = factory.openSession(true)) {
      Item found = session.getMapper(ItemMapper.class).find(item.id);
      assertThat(found.servedBy).as("caught up: an autocommit select is a replica read").isIn(REPLICA_PORTS);
      assertThat(found.writtenOn).isEqualTo(PRIMARY_PORT);
    }
  }

  @Test
  void sessionVariablesSetThroughTheMapperReachTheReplica() throws SQLException {
    // MyBatis runs every mapped statement as a PreparedStatement, SET included.
    try (SqlSession session = factory.openSession(true)) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      Map<String, Object> before = mapper.sessionSettings();
      assertThat(((Number) before.get("port")).intValue()).as("a replica answers before the SET").isIn(REPLICA_PORTS);
      mapper.setTimeZone("+03:00");
      mapper.ansiQuotes();
      Map<String, Object> after = mapper.sessionSettings();
      int port = ((Number) after.get("port")).intValue();
      assertThat((String) after.get("setting")).as("time_zone and sql_mode seen by port %d", port)
          .isEqualTo("+03:00 ANSI_QUOTES");
      assertThat(port).as("answered by a replica").isIn(REPLICA_PORTS);
    }
  }

  @Test
  void batchInsertsGetTheirGeneratedKeysAndAreReadBack() throws SQLException {
    Topology.pauseAppliers();
    List<Item> items = new ArrayList<>();
    try (SqlSession session = factory.openSession(ExecutorType.BATCH, true)) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      for (int i = 0; i < 3; i++) {
        Item item = new Item("batch");
        mapper.insert(item);
        items.add(item);
      }
      session.flushStatements();
    }
    assertThat(items).extracting(item -> item.id).doesNotContainNull().doesNotHaveDuplicates();
    try (SqlSession session = factory.openSession(true)) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      assertThat(mapper.countByName("batch")).as("the batch, read right after it with appliers stopped").isEqualTo(3);
      for (Item item : items) {
        Item found = mapper.find(item.id);
        assertThat(found).isNotNull();
        assertThat(found.servedBy).isEqualTo(PRIMARY_PORT);
      }
    }
  }
}
