package dev.ryow.spring.boot.tests;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.messaging.MessageTokens;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producing service of {@link MessagingIT}, in its own JVM (so that the consumer's JVM knows nothing
 * of its writes but what a message tells): for each line {@code ID VALUE PROPAGATE} on standard input it
 * writes a row through {@code jdbc:ryow:} in a {@link ConsistencyScope}, then sends a Kafka record about it,
 * with the scope's token in the {@link MessageTokens} header when PROPAGATE is {@code true}, and prints
 * {@code SENT ID} once the broker has it. Arguments: the JDBC URL, user, password, bootstrap servers, topic.
 */
public final class MessageProducerMain {
  /** The key both sides sign and check tokens with. */
  static final String KEY = "messaging-it-token-key";
  static final MessageTokens TOKENS =
      MessageTokens.of(TokenCodec.of(TokenCodec.DEFAULT_MAX_LENGTH, TokenCodec.DEFAULT_MAX_INTERVALS, KEY));
  static final String READY = "PRODUCER-READY";
  static final String SENT = "SENT ";

  private MessageProducerMain() {}

  /** Entry point. */
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String user = args[1];
    String password = args[2];
    String topic = args[4];
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[3]);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      System.out.println(READY);
      for (String line; (line = in.readLine()) != null; ) {
        String[] words = line.trim().split(" ");
        int id = Integer.parseInt(words[0]);
        int value = Integer.parseInt(words[1]);
        boolean propagate = Boolean.parseBoolean(words[2]);
        try (ConsistencyScope scope = ConsistencyScope.open();
            Connection c = DriverManager.getConnection(url, user, password);
            PreparedStatement ps = c.prepareStatement("INSERT INTO starter_messages (id, value) VALUES (?, ?)")) {
          ps.setInt(1, id);
          ps.setInt(2, value);
          ps.executeUpdate();
          if (scope.gtids().isEmpty()) {
            throw new IllegalStateException("the write did not reach the scope");
          }
          ProducerRecord<String, String> record = new ProducerRecord<>(topic, String.valueOf(id), String.valueOf(value));
          byte[] token = TOKENS.outgoingBytes();
          if (propagate && token != null) {
            record.headers().add(TOKENS.header(), token);
          }
          producer.send(record).get(60, TimeUnit.SECONDS);
        }
        System.out.println(SENT + id);
      }
    }
  }
}
