package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.messaging.MessageTokens;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Read-your-writes through Kafka with Spring Kafka, the lines of {@link MessageTokens} done for the
 * application: {@link #producerInterceptor()} adds the current scope's token to each record a
 * {@code KafkaTemplate} sends (on the sending thread, before the record is serialized), and
 * {@link #recordInterceptor()} opens a scope with a received record's token on the listener thread before
 * the listener runs and closes it after ({@code afterRecord}), so that the listener's reads see the
 * producer's writes. {@link RyowKafkaAutoConfiguration} installs both. Record listeners only: a batch
 * listener's records carry one token each, and no single scope is right for all of them.
 */
public final class RyowKafkaPropagation {
  private final MessageTokens tokens;
  /** The scope the record interceptor opened on this listener thread, until the record is done. */
  private static final ThreadLocal<@Nullable ConsistencyScope> OPEN = new ThreadLocal<>();

  /** Propagation with {@code tokens}' codec and header. */
  public RyowKafkaPropagation(MessageTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /** The header and codec. */
  public MessageTokens tokens() {
    return tokens;
  }

  /**
   * For {@code KafkaTemplate.setProducerInterceptor}: adds the token of the scope open on the sending
   * thread, unless the record already has the header (the application's own token wins).
   */
  public <K, V> ProducerInterceptor<K, V> producerInterceptor() {
    return new ProducerInterceptor<>() {
      @Override
      public ProducerRecord<K, V> onSend(ProducerRecord<K, V> record) {
        if (record.headers().lastHeader(tokens.header()) == null) {
          byte[] token = tokens.outgoingBytes();
          if (token != null) {
            record.headers().add(tokens.header(), token);
          }
        }
        return record;
      }

      @Override
      public void onAcknowledgement(@Nullable RecordMetadata metadata, @Nullable Exception exception) {}

      @Override
      public void close() {}

      @Override
      public void configure(Map<String, ?> configs) {}

      @Override
      public String toString() {
        return "RyowKafkaProducerInterceptor[" + tokens + "]";
      }
    };
  }

  /**
   * For a listener container factory: opens a scope with the record's token (an empty scope without one, or
   * with a token the codec rejects, as {@link MessageTokens#open(String)}) before the listener, and closes it
   * after the record, whether the listener returned or threw.
   */
  public <K, V> RecordInterceptor<K, V> recordInterceptor() {
    return new RecordInterceptor<>() {
      @Override
      public ConsumerRecord<K, V> intercept(ConsumerRecord<K, V> record, Consumer<K, V> consumer) {
        closeOpen();
        Header h = record.headers().lastHeader(tokens.header());
        OPEN.set(tokens.open(h == null ? null : h.value()));
        return record;
      }

      @Override
      public void afterRecord(ConsumerRecord<K, V> record, Consumer<K, V> consumer) {
        closeOpen();
      }

      @Override
      public void clearThreadState(Consumer<?, ?> consumer) {
        closeOpen();
      }

      @Override
      public String toString() {
        return "RyowKafkaRecordInterceptor[" + tokens + "]";
      }
    };
  }

  private static void closeOpen() {
    ConsistencyScope scope = OPEN.get();
    if (scope != null) {
      OPEN.remove();
      scope.close();
    }
  }
}
