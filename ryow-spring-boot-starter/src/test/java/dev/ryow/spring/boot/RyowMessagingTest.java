package dev.ryow.spring.boot;

import static dev.ryow.spring.boot.StarterContexts.URL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.messaging.MessageTokens;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * The starter's message propagation without a broker: what the Kafka interceptors and the AMQP
 * post-processors and advice write on send and open around a listener, and that the auto-configuration
 * installs them on the application's beans, keeps the application's own, and stays off with
 * {@code ryow.messaging.enabled=false}. Through a real Kafka broker: KafkaListenerIT in
 * ryow-spring-boot-starter-tests.
 */
class RyowMessagingTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final TokenCodec CODEC = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");
  private static final MessageTokens TOKENS = MessageTokens.of(CODEC);

  // ---------------------------------------------------------------- Kafka

  @Test
  void kafkaSendAddsTheScopesTokenAndOnlyInAScope() throws Exception {
    ProducerInterceptor<String, String> interceptor = new RyowKafkaPropagation(TOKENS).producerInterceptor();
    ProducerRecord<String, String> outside = interceptor.onSend(new ProducerRecord<>("t", "k", "v"));
    assertThat(outside.headers().lastHeader(TOKENS.header())).as("no scope, no token").isNull();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1-4"));
      ProducerRecord<String, String> sent = interceptor.onSend(new ProducerRecord<>("t", "k", "v"));
      String token = new String(sent.headers().lastHeader(TOKENS.header()).value(), StandardCharsets.US_ASCII);
      assertThat(CODEC.decode(token)).as("the scope's writes, signed").isEqualTo(GtidSet.parse(A + ":1-4"));
      ProducerRecord<String, String> own = new ProducerRecord<>("t", "k", "v");
      own.headers().add(TOKENS.header(), "mine".getBytes(StandardCharsets.US_ASCII));
      assertThat(interceptor.onSend(own).headers().headers(TOKENS.header())).as("the application's own header wins")
          .hasSize(1);
    }
  }

  @Test
  void kafkaListenerRunsInTheRecordsScopeWhichClosesAfterEvenAnInvalidOne() {
    RecordInterceptor<String, String> interceptor = new RyowKafkaPropagation(TOKENS).recordInterceptor();
    ConsumerRecord<String, String> record = new ConsumerRecord<>("t", 0, 0, "k", "v");
    record.headers().add(TOKENS.header(), CODEC.encode(GtidSet.parse(A + ":1-9")).getBytes(StandardCharsets.US_ASCII));
    @SuppressWarnings("unchecked")
    Consumer<String, String> consumer = org.mockito.Mockito.mock(Consumer.class);

    assertThat(interceptor.intercept(record, consumer)).isSameAs(record);
    ConsistencyScope during = ConsistencyScope.current();
    assertThat(during).as("the listener's scope").isNotNull();
    assertThat(during.gtids()).isEqualTo(GtidSet.parse(A + ":1-9"));
    interceptor.success(record, consumer);
    interceptor.afterRecord(record, consumer);
    assertThat(ConsistencyScope.current()).as("closed after the record").isNull();

    ConsumerRecord<String, String> forged = new ConsumerRecord<>("t", 0, 1, "k", "v");
    forged.headers().add(TOKENS.header(), TokenCodec.of(2048, 64, "another-key-of-16-chars")
        .encode(GtidSet.parse(A + ":1-9")).getBytes(StandardCharsets.US_ASCII));
    interceptor.intercept(forged, consumer);
    assertThat(ConsistencyScope.current()).as("an empty scope, as MessageTokens.open").isNotNull();
    assertThat(ConsistencyScope.current().gtids().isEmpty()).isTrue();
    interceptor.failure(forged, new IllegalStateException("the listener threw"), consumer);
    interceptor.afterRecord(forged, consumer);
    assertThat(ConsistencyScope.current()).isNull();

    interceptor.intercept(new ConsumerRecord<>("t", 0, 2, "k", "v"), consumer);
    assertThat(ConsistencyScope.current()).as("no header: an empty scope").isNotNull();
    interceptor.clearThreadState(consumer);
    assertThat(ConsistencyScope.current()).as("closed when the container clears the thread").isNull();
  }

  /** An application's Kafka beans, one factory with its own record interceptor. */
  @Configuration(proxyBeanMethods = false)
  static class KafkaBeans {
    static final RecordInterceptor<String, String> THEIRS = (record, consumer) -> record;

    @Bean
    KafkaTemplate<String, String> kafkaTemplate() {
      return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of("bootstrap.servers", "127.0.0.1:1")));
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory() {
      ConcurrentKafkaListenerContainerFactory<String, String> f = new ConcurrentKafkaListenerContainerFactory<>();
      f.setConsumerFactory(new DefaultKafkaConsumerFactory<>(Map.of("bootstrap.servers", "127.0.0.1:1")));
      f.setRecordInterceptor(THEIRS);
      return f;
    }
  }

  @Test
  void theStarterInstallsTheKafkaInterceptorsKeepsTheApplicationsAndHonoursTheSwitch() {
    StarterContexts.plain().withUserConfiguration(KafkaBeans.class)
        .withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(RyowKafkaPropagation.class);
          Object producer = new DirectFieldAccessor(context.getBean(KafkaTemplate.class)).getPropertyValue("producerInterceptor");
          assertThat(String.valueOf(producer)).contains("RyowKafkaProducerInterceptor");
          Object record = new DirectFieldAccessor(context.getBean(ConcurrentKafkaListenerContainerFactory.class))
              .getPropertyValue("recordInterceptor");
          assertThat(record).isInstanceOf(org.springframework.kafka.listener.CompositeRecordInterceptor.class);
          @SuppressWarnings("unchecked")
          java.util.Collection<Object> parts = (java.util.Collection<Object>) new DirectFieldAccessor(record)
              .getPropertyValue("delegates");
          assertThat(parts).hasSize(2).contains(KafkaBeans.THEIRS);
          assertThat(parts.iterator().next().toString()).as("ours first").contains("RyowKafkaRecordInterceptor");
        });
    StarterContexts.plain().withUserConfiguration(KafkaBeans.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.messaging.enabled=false")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowKafkaPropagation.class);
          assertThat(new DirectFieldAccessor(context.getBean(KafkaTemplate.class)).getPropertyValue("producerInterceptor"))
              .isNull();
          assertThat(new DirectFieldAccessor(context.getBean(ConcurrentKafkaListenerContainerFactory.class))
              .getPropertyValue("recordInterceptor")).isSameAs(KafkaBeans.THEIRS);
        });
  }

  // ---------------------------------------------------------------- AMQP

  @Test
  void rabbitPublishAddsTheScopesTokenAndOnlyInAScope() throws Exception {
    MessagePostProcessor publish = new RyowRabbitPropagation(TOKENS).beforePublish();
    Message outside = publish.postProcessMessage(new Message(new byte[0], new MessageProperties()));
    Object none = outside.getMessageProperties().getHeader(TOKENS.header());
    assertThat(none).as("no scope, no token").isNull();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1-4"));
      Message sent = publish.postProcessMessage(new Message(new byte[0], new MessageProperties()));
      String token = sent.getMessageProperties().getHeader(TOKENS.header());
      assertThat(CODEC.decode(token)).as("the scope's writes, signed").isEqualTo(GtidSet.parse(A + ":1-4"));
    }
  }

  @Test
  void rabbitListenerRunsInTheMessagesScopeWhichTheAdviceClosesEvenWhenItThrows() throws Throwable {
    RyowRabbitPropagation propagation = new RyowRabbitPropagation(TOKENS);
    MethodInterceptor advice = propagation.listenerAdvice();
    MessagePostProcessor receive = propagation.afterReceive();
    AtomicReference<@Nullable Position> seen = new AtomicReference<>();
    MessageProperties props = new MessageProperties();
    props.setHeader(TOKENS.header(), CODEC.encode(GtidSet.parse(A + ":1-9")));
    Message message = new Message(new byte[0], props);

    // The container: the advice around the delivery; inside, the after-receive post-processor, then the listener.
    advice.invoke(delivery(() -> {
      receive.postProcessMessage(message);
      ConsistencyScope s = ConsistencyScope.current();
      seen.set(s == null ? null : s.gtids());
    }));
    assertThat(seen.get()).as("the listener's scope").isEqualTo(GtidSet.parse(A + ":1-9"));
    assertThat(ConsistencyScope.current()).as("closed after the delivery").isNull();

    MessageProperties invalid = new MessageProperties();
    invalid.setHeader(TOKENS.header(), "not-a-token");
    List<Boolean> emptyScope = new ArrayList<>();
    try {
      advice.invoke(delivery(() -> {
        receive.postProcessMessage(new Message(new byte[0], invalid));
        ConsistencyScope s = ConsistencyScope.current();
        emptyScope.add(s != null && s.gtids().isEmpty());
        throw new IllegalStateException("the listener threw");
      }));
    } catch (IllegalStateException expected) {
      // the delivery failed
    }
    assertThat(emptyScope).as("an invalid token opens an empty scope, as MessageTokens.open").containsExactly(true);
    assertThat(ConsistencyScope.current()).as("closed after a failed delivery").isNull();
    assertThat(propagation.scopeOpenHere()).isFalse();
  }

  private static MethodInvocation delivery(Runnable body) {
    MethodInvocation invocation = org.mockito.Mockito.mock(MethodInvocation.class);
    try {
      org.mockito.Mockito.when(invocation.proceed()).thenAnswer(i -> {
        body.run();
        return null;
      });
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
    return invocation;
  }

  /** An application's Rabbit beans, a factory with its own advice and after-receive post-processor. */
  @Configuration(proxyBeanMethods = false)
  static class RabbitBeans {
    static final MessagePostProcessor THEIRS = m -> m;
    static final Advice THEIR_ADVICE = (MethodInterceptor) MethodInvocation::proceed;

    @Bean
    CachingConnectionFactory rabbitConnectionFactory() {
      return new CachingConnectionFactory("127.0.0.1", 1);
    }

    @Bean
    RabbitTemplate rabbitTemplate(CachingConnectionFactory cf) {
      return new RabbitTemplate(cf);
    }

    @Bean
    SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory cf) {
      SimpleRabbitListenerContainerFactory f = new SimpleRabbitListenerContainerFactory();
      f.setConnectionFactory(cf);
      f.setAdviceChain(THEIR_ADVICE);
      f.setAfterReceivePostProcessors(THEIRS);
      return f;
    }
  }

  @Test
  void theStarterInstallsTheRabbitPartsKeepsTheApplicationsAndHonoursTheSwitch() {
    StarterContexts.plain().withUserConfiguration(RabbitBeans.class)
        .withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(RyowRabbitPropagation.class);
          assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors()).singleElement()
              .asString().contains("RyowRabbitBeforePublish");
          SimpleRabbitListenerContainerFactory f = context.getBean(SimpleRabbitListenerContainerFactory.class);
          assertThat(f.getAdviceChain()).hasSize(2).endsWith(RabbitBeans.THEIR_ADVICE);
          assertThat(f.getAdviceChain()[0].toString()).contains("RyowRabbitListenerAdvice");
          MessagePostProcessor[] after = RyowRabbitAutoConfiguration.afterReceive(f);
          assertThat(after).hasSize(2).endsWith(RabbitBeans.THEIRS);
          assertThat(after[0].toString()).contains("RyowRabbitAfterReceive");
        });
    StarterContexts.plain().withUserConfiguration(RabbitBeans.class)
        .withPropertyValues("spring.datasource.url=" + URL, "ryow.messaging.enabled=false")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RyowRabbitPropagation.class);
          assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors()).isNullOrEmpty();
          assertThat(context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain())
              .containsExactly(RabbitBeans.THEIR_ADVICE);
        });
  }

  @Test
  void withoutSpringKafkaOrSpringAmqpTheStarterWorksAsBefore() {
    StarterContexts.plain().withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader(
            "org.springframework.kafka", "org.apache.kafka", "org.springframework.amqp", "com.rabbitmq"))
        .withPropertyValues("spring.datasource.url=" + URL)
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RyowSettings.class)
            .doesNotHaveBean(RyowKafkaPropagation.class).doesNotHaveBean(RyowRabbitPropagation.class));
  }
}
