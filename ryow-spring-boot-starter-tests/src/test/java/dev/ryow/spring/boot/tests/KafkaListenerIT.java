package dev.ryow.spring.boot.tests;

import static dev.ryow.spring.boot.tests.Servers.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The starter's Kafka propagation through a real broker ({@link KafkaBroker}, its own JVM): an application
 * writes a row through {@code jdbc:ryow:} inside a {@link ConsistencyScope} and sends a record about it with
 * a plain {@code KafkaTemplate} bean; a {@code @KafkaListener} of the same application reads the row when
 * the record arrives. No line of propagation code in the application: the starter adds the token on send
 * and opens the scope around the listener ({@code ryow.messaging.enabled}, the default).
 *
 * <p>Producer and listener share a JVM here, so the driver runs with {@code ryow.consistency=scope}: under
 * the default {@code jvm} the listener's reads would wait for this JVM's writes anyway, and the test would
 * prove nothing about the header (MessagingIT covers two JVMs with the driver's defaults). Every record is
 * sent and consumed with the replicas' appliers blocked: with the starter's propagation every read shows the
 * row (from the primary, the replicas cannot have it); with {@code ryow.messaging.enabled=false} the reads
 * miss it: the test has teeth.
 */
@AboutSettings(value = "ryow.consistency", why = "producer and listener share one JVM: with the default jvm mode"
    + " the listener would wait for the producer's writes without the header, so the header's part is shown in scope mode")
class KafkaListenerIT {
  private static final String TOPIC_ON = "starter-listener-on";
  private static final String TOPIC_OFF = "starter-listener-off";
  private static final int MESSAGES = 3;
  private static final String URL = Servers.ryowUrl() + "?ryow.consistency=scope";
  private static KafkaBroker broker;
  private static int nextId = 80_000;

  @BeforeAll
  static void startBroker() throws Exception {
    Servers.exec(PRIMARY_PORT, "CREATE TABLE IF NOT EXISTS starter_listener (id INT PRIMARY KEY, value INT NULL)");
    Servers.exec(PRIMARY_PORT, "DELETE FROM starter_listener");
    Servers.awaitReplicasCaughtUp();
    broker = KafkaBroker.start("kafka-listener");
    broker.createTopic(TOPIC_ON);
    broker.createTopic(TOPIC_OFF);
  }

  @AfterAll
  static void stop() throws Exception {
    if (broker != null) {
      broker.close();
    }
  }

  /** The application: a template, a listener container factory and a listener, as users declare them. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @EnableKafka
  static class ListenerApplication {
    @Bean
    KafkaTemplate<String, String> kafkaTemplate(Environment env) {
      return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getRequiredProperty("test.bootstrap"),
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class)));
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(Environment env) {
      ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
      factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(Map.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getRequiredProperty("test.bootstrap"),
          ConsumerConfig.GROUP_ID_CONFIG, "listener-it-" + env.getRequiredProperty("test.topic"),
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class)));
      return factory;
    }

    @Bean
    Listener listener() {
      return new Listener();
    }
  }

  /** The listener: reads the row the record names, through jdbc:ryow:, on the container's thread. */
  static class Listener {
    final BlockingQueue<String> pages = new LinkedBlockingQueue<>();

    @KafkaListener(topics = "${test.topic}")
    void onMessage(ConsumerRecord<String, String> record) throws Exception {
      try (Connection c = DriverManager.getConnection(URL, Servers.USER, Servers.PASSWORD);
          PreparedStatement ps = c.prepareStatement("SELECT MAX(value), @@port FROM starter_listener WHERE id = ?")) {
        ps.setInt(1, Integer.parseInt(record.key()));
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          pages.add(record.key() + " " + rs.getObject(1) + "@" + rs.getInt(2));
        }
      }
    }
  }

  private static ConfigurableApplicationContext start(String topic, boolean messaging) {
    return new SpringApplicationBuilder(ListenerApplication.class).web(WebApplicationType.NONE).run(
        "--spring.datasource.url=" + URL,
        "--spring.datasource.username=" + Servers.USER,
        "--spring.datasource.password=" + Servers.PASSWORD,
        "--spring.main.banner-mode=off",
        "--test.bootstrap=" + broker.bootstrap(),
        "--test.topic=" + topic,
        "--ryow.messaging.enabled=" + messaging);
  }

  /** One record's outcome: the value written and the page ({@code value@port}) the listener's read showed. */
  record Read(int written, String page) {
    boolean sawTheWrite() {
      return page.startsWith(written + "@");
    }

    int port() {
      return Integer.parseInt(page.substring(page.indexOf('@') + 1));
    }
  }

  @Test
  void theListenerReadsTheSendersWriteOnlyWithTheStartersPropagation() throws Exception {
    List<Read> without = run(TOPIC_OFF, false);
    List<Read> with = run(TOPIC_ON, true);
    with.forEach(r -> System.out.println("KafkaListenerIT ryow.messaging.enabled=true:  " + r));
    without.forEach(r -> System.out.println("KafkaListenerIT ryow.messaging.enabled=false: " + r));
    for (Read r : with) {
      assertThat(r.sawTheWrite()).as("with the starter's propagation: %s", r).isTrue();
      assertThat(r.port()).as("the replicas cannot have it, the read fell back to the primary: %s", r)
          .isEqualTo(PRIMARY_PORT);
    }
    assertThat(without.stream().filter(r -> !r.sawTheWrite()).count())
        .as("without it some read misses the write, the test has teeth: %s", without).isPositive();
  }

  @SuppressWarnings({"unchecked", "try"}) // the application's template; the block and scope are held by the try
  private static List<Read> run(String topic, boolean messaging) throws Exception {
    List<Read> reads = new ArrayList<>();
    try (ConfigurableApplicationContext app = start(topic, messaging)) {
      KafkaTemplate<String, String> template = app.getBean(KafkaTemplate.class);
      Listener listener = app.getBean(Listener.class);
      awaitReplicaReadHere();
      for (int i = 0; i < MESSAGES; i++) {
        int id = nextId++;
        int value = id % 1000 + 1;
        try (Servers.ApplierBlock block = new Servers.ApplierBlock()) {
          try (ConsistencyScope scope = ConsistencyScope.open();
              Connection c = DriverManager.getConnection(URL, Servers.USER, Servers.PASSWORD);
              PreparedStatement ps = c.prepareStatement("INSERT INTO starter_listener (id, value) VALUES (?, ?)")) {
            ps.setInt(1, id);
            ps.setInt(2, value);
            ps.executeUpdate();
            template.send(topic, String.valueOf(id), "written").get(60, TimeUnit.SECONDS);
          }
          String page = listener.pages.poll(120, TimeUnit.SECONDS);
          assertThat(page).as("the listener read record %d", id).isNotNull().startsWith(id + " ");
          reads.add(new Read(value, page.substring(page.indexOf(' ') + 1)));
        } finally {
          Servers.awaitReplicasCaughtUp();
        }
      }
    }
    return reads;
  }

  /** Waits (up to 120 s) until this JVM's jdbc:ryow: reads are served by a replica. */
  private static void awaitReplicaReadHere() throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(URL, Servers.USER, Servers.PASSWORD);
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
