package dev.ryow.spring.boot;

import dev.ryow.jdbc.messaging.MessageTokens;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.support.CompositeProducerInterceptor;

/**
 * Carries read-your-writes through Kafka, only when Spring Kafka is on the class path: every
 * {@link KafkaTemplate} bean adds the current scope's token to the records it sends, and every listener
 * container factory bean (the one {@code @KafkaListener} uses) gives its record listeners a scope opened
 * with the record's token ({@link RyowKafkaPropagation}). Both hooks are single slots in Spring Kafka: an
 * interceptor the application set before is kept, composed with ours in Spring Kafka's own
 * {@code CompositeProducerInterceptor}/{@code CompositeRecordInterceptor}. Off with
 * {@code ryow.messaging.enabled=false}; the token is signed with {@code ryow.token-key}, in the
 * {@value MessageTokens#DEFAULT_HEADER} header.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.kafka.core.KafkaTemplate")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.messaging", name = "enabled", matchIfMissing = true)
public class RyowKafkaAutoConfiguration {
  /** Created by Spring. */
  public RyowKafkaAutoConfiguration() {}

  /** The interceptors, with the starter's codec. */
  @Bean
  @ConditionalOnMissingBean
  RyowKafkaPropagation ryowKafkaPropagation(RyowSettings settings) {
    return new RyowKafkaPropagation(MessageTokens.of(settings.tokenCodec()));
  }

  /** Adds the interceptors to the application's templates and listener container factories. */
  @Bean
  static BeanPostProcessor ryowKafkaPostProcessor(ObjectProvider<RyowKafkaPropagation> propagation) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof KafkaTemplate<?, ?> template) {
          addTo(template, propagation.getObject());
        } else if (bean instanceof AbstractKafkaListenerContainerFactory<?, ?, ?> factory) {
          addTo(factory, propagation.getObject());
        }
        return bean;
      }
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // the template's key and value types do not matter to a header
  static void addTo(KafkaTemplate template, RyowKafkaPropagation propagation) {
    ProducerInterceptor ours = propagation.producerInterceptor();
    Object theirs = existing(template, "producerInterceptor");
    template.setProducerInterceptor(
        theirs instanceof ProducerInterceptor p ? new CompositeProducerInterceptor(p, ours) : ours);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // as above
  static void addTo(AbstractKafkaListenerContainerFactory factory, RyowKafkaPropagation propagation) {
    RecordInterceptor ours = propagation.recordInterceptor();
    Object theirs = existing(factory, "recordInterceptor");
    // Ours first: the application's interceptor and the listener run inside the scope.
    factory.setRecordInterceptor(theirs instanceof RecordInterceptor r ? new CompositeRecordInterceptor(ours, r) : ours);
  }

  /** The interceptor the application set, read once at start-up (Spring Kafka has no getter for it). */
  private static @Nullable Object existing(Object bean, String field) {
    DirectFieldAccessor fields = new DirectFieldAccessor(bean);
    return fields.isReadableProperty(field) ? fields.getPropertyValue(field) : null;
  }
}
