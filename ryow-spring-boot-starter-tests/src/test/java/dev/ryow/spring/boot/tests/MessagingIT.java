package dev.ryow.spring.boot.tests;

import static dev.ryow.spring.boot.tests.Servers.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes through a message broker: a producing service writes a row through {@code jdbc:ryow:},
 * then publishes a Kafka record about it; the consuming service reads the row when the record arrives.
 * The producer is {@link MessageProducerMain} in its own JVM; the broker is Kafka in KRaft mode in its own
 * JVM ({@link KafkaBroker}); the consumer is this test's JVM, a plain {@code KafkaConsumer} whose handler
 * opens a scope with the record's {@link dev.ryow.jdbc.messaging.MessageTokens} header (the lines
 * docs/consistency.md shows) and reads through {@code jdbc:ryow:} with the driver's defaults.
 *
 * <p>Every message is produced and consumed with the replicas' appliers blocked ({@code FLUSH TABLES WITH
 * READ LOCK}, released after the read, then the replicas catch up): the row cannot reach a replica before
 * the read. With the token in the header every read shows the row (from the primary); without it the reads
 * miss it: the test has teeth. Messages without the token go first, for the reason ServiceCallsIT gives.
 */
class MessagingIT {
  private static final String TOPIC = "starter-messages";
  private static final int MESSAGES = 4;
  private static KafkaBroker broker;
  private static Process producer;
  private static Writer commands;
  private static final BlockingQueue<String> PRODUCER_LINES = new LinkedBlockingQueue<>();
  private static KafkaConsumer<String, String> consumer;
  private static int nextId = 70_000;

  @BeforeAll
  static void startBrokerAndProducer() throws Exception {
    Servers.exec(PRIMARY_PORT, "CREATE TABLE IF NOT EXISTS starter_messages (id INT PRIMARY KEY, value INT NULL)");
    Servers.exec(PRIMARY_PORT, "DELETE FROM starter_messages");
    Servers.awaitReplicasCaughtUp();
    broker = KafkaBroker.start("kafka");
    broker.createTopic(TOPIC);
    startProducer();
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()));
    consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
  }

  private static void startProducer() throws Exception {
    Path logs = Path.of(System.getProperty("ryow.it.logs", "target/it-applications"));
    Files.createDirectories(logs);
    Path logback = logs.resolve("producer-logback.xml");
    Files.writeString(logback, KafkaBroker.quietLogging(), StandardCharsets.UTF_8);
    String classpath = System.getProperty("ryow.it.testClasses") + File.pathSeparator
        + Files.readString(Path.of(System.getProperty("ryow.it.applicationClasspath")), StandardCharsets.UTF_8).trim();
    Path argFile = logs.resolve("producer.args");
    Files.writeString(argFile, "-cp \"" + classpath + "\"\n", StandardCharsets.UTF_8);
    producer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dlogback.configurationFile=" + logback,
        "@" + argFile, MessageProducerMain.class.getName(),
        Servers.ryowUrl(), Servers.USER, Servers.PASSWORD, broker.bootstrap(), TOPIC)
        .redirectErrorStream(true).start();
    commands = new OutputStreamWriter(producer.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(producer.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          System.out.println("MessagingIT producer: " + line);
          PRODUCER_LINES.add(line);
        }
      } catch (java.io.IOException ended) {
        // the process ended
      }
    }, "producer-output");
    reader.setDaemon(true);
    reader.start();
    awaitProducerLine(MessageProducerMain.READY);
  }

  private static void awaitProducerLine(String expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      String line = PRODUCER_LINES.poll(1, TimeUnit.SECONDS);
      if (line != null && line.equals(expected)) {
        return;
      }
      if (line != null) {
        seen.add(line);
      }
      if (line == null && !producer.isAlive()) {
        break;
      }
    }
    throw new AssertionError("the producer did not print " + expected + ": " + seen);
  }

  @AfterAll
  static void stop() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    if (producer != null) {
      producer.destroy();
      if (!producer.waitFor(20, TimeUnit.SECONDS)) {
        producer.destroyForcibly();
      }
    }
    if (broker != null) {
      broker.close();
    }
  }

  /** One message's outcome: whether it carried a token, the value written, the page ({@code value@port}) the read showed. */
  record Read(boolean propagated, int written, String page) {
    boolean sawTheWrite() {
      return page.startsWith(written + "@");
    }

    int port() {
      return Integer.parseInt(page.substring(page.indexOf('@') + 1));
    }
  }

  @Test
  void theConsumerReadsTheProducersWriteOnlyWithTheTokenInTheMessage() throws Exception {
    awaitReplicaReadHere();
    List<Read> without = new ArrayList<>();
    List<Read> with = new ArrayList<>();
    for (int i = 0; i < MESSAGES; i++) {
      without.add(produceAndConsume(false));
    }
    for (int i = 0; i < MESSAGES; i++) {
      with.add(produceAndConsume(true));
    }
    with.forEach(r -> System.out.println("MessagingIT token in the message:    " + r));
    without.forEach(r -> System.out.println("MessagingIT no token in the message: " + r));
    for (Read r : with) {
      assertThat(r.sawTheWrite()).as("with the token: %s", r).isTrue();
      assertThat(r.port()).as("the replicas cannot have it, the read fell back to the primary: %s", r).isEqualTo(PRIMARY_PORT);
    }
    assertThat(without.stream().filter(r -> !r.sawTheWrite()).count())
        .as("without the token some read misses the write, the test has teeth: %s", without).isPositive();
  }

  /** Under blocked appliers: the producer writes and publishes, this JVM consumes and reads. */
  @SuppressWarnings("try")  // the block is held for the try's body
  private Read produceAndConsume(boolean propagate) throws Exception {
    int id = nextId++;
    int value = id % 1000 + 1;
    try (Servers.ApplierBlock block = new Servers.ApplierBlock()) {
      commands.write(id + " " + value + " " + propagate + "\n");
      commands.flush();
      awaitProducerLine(MessageProducerMain.SENT + id);
      ConsumerRecord<String, String> record = next(id);
      return new Read(propagate, value, handle(record));
    } finally {
      Servers.awaitReplicasCaughtUp();
    }
  }

  private static ConsumerRecord<String, String> next(int id) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
        if (r.key().equals(String.valueOf(id))) {
          return r;
        }
      }
    }
    throw new AssertionError("no record for " + id + " within 60 s");
  }

  /** The consumer's handler, as an application writes it: a scope opened with the message's token around the read. */
  @SuppressWarnings("try")  // the scope is bound to this thread for the try's body
  private static String handle(ConsumerRecord<String, String> record) throws Exception {
    Header h = record.headers().lastHeader(MessageProducerMain.TOKENS.header());
    try (ConsistencyScope scope = MessageProducerMain.TOKENS.open(h == null ? null : h.value());
        Connection c = DriverManager.getConnection(Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
        PreparedStatement ps = c.prepareStatement("SELECT MAX(value), @@port FROM starter_messages WHERE id = ?")) {
      ps.setInt(1, Integer.parseInt(record.key()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getObject(1) + "@" + rs.getInt(2);
      }
    }
  }

  /** Waits (up to 120 s) until this JVM's jdbc:ryow: reads are served by a replica. */
  private static void awaitReplicaReadHere() throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
          PreparedStatement ps = c.prepareStatement("SELECT @@port");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getInt(1) != PRIMARY_PORT) {
          return;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("this JVM's reads still on the primary");
  }
}
