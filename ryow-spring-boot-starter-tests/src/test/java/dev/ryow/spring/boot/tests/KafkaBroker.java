package dev.ryow.spring.boot.tests;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A single-node Kafka broker in KRaft mode (broker and controller in one process) from Maven Central's
 * {@code kafka_2.13}, in its own JVM on the module's test class path, listening on 127.0.0.1 only; its
 * data in a fresh folder under {@code target/it-applications}, deleted with the process.
 */
final class KafkaBroker implements AutoCloseable {
  private final Process process;
  private final Path dir;
  private final int port;

  private KafkaBroker(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /** Formats the storage, starts the broker and waits (up to 180 s) until it answers. */
  static KafkaBroker start(String name) throws Exception {
    Path logs = Path.of(System.getProperty("ryow.it.logs", "target/it-applications"));
    Path dir = Files.createDirectories(logs.resolve(name + "-" + System.nanoTime()));
    int port = freePort();
    int controllerPort = freePort();
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", "1");
    p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
    p.setProperty("log.dirs", dir.resolve("data").toString());
    p.setProperty("num.partitions", "1");
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", "1");
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    Path config = dir.resolve("server.properties");
    try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
      p.store(out, "MessagingIT broker");
    }
    Path logback = dir.resolve("logback.xml");
    Files.writeString(logback, quietLogging(), StandardCharsets.UTF_8);
    Path log = dir.resolve("broker.log");
    Process format = java(dir, logback, List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
        "-c", config.toString()), dir.resolve("format.log")).start();
    if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new AssertionError("formatting the broker's storage failed:\n" + Files.readString(dir.resolve("format.log")));
    }
    Process broker = java(dir, logback, List.of("kafka.Kafka", config.toString()), log).start();
    KafkaBroker started = new KafkaBroker(broker, dir, port);
    started.awaitReady(log);
    return started;
  }

  private static ProcessBuilder java(Path dir, Path logback, List<String> mainAndArgs, Path output) throws IOException {
    String classpath = System.getProperty("ryow.it.testClasses") + File.pathSeparator
        + Files.readString(Path.of(System.getProperty("ryow.it.applicationClasspath")), StandardCharsets.UTF_8).trim();
    Path argFile = dir.resolve("classpath.args");
    Files.writeString(argFile, "-cp \"" + classpath + "\"\n", StandardCharsets.UTF_8);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dlogback.configurationFile=" + logback,
        "@" + argFile));
    command.addAll(mainAndArgs);
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
  }

  /** Logback for the broker and the producer: warnings and errors only, on standard output. */
  static String quietLogging() {
    return """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <root level="WARN"><appender-ref ref="OUT"/></root>
        </configuration>
        """;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void awaitReady(Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    Exception last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("the broker exited with " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try (Admin admin = admin()) {
        admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
        return;
      } catch (Exception notYet) {
        last = notYet;
        Thread.sleep(500);
      }
    }
    throw new AssertionError("the broker did not answer in 180 s:\n" + Files.readString(log), last);
  }

  String bootstrap() {
    return "127.0.0.1:" + port;
  }

  Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }

  /** Creates a topic of one partition (waits until the broker has it). */
  void createTopic(String topic) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }
  }

  /** Stops the broker and deletes its data. */
  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    Path data = dir.resolve("data");
    if (Files.exists(data)) {
      try (var paths = Files.walk(data)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
