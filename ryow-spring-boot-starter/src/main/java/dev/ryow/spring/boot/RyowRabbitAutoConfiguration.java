package dev.ryow.spring.boot;

import dev.ryow.jdbc.messaging.MessageTokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Carries read-your-writes through RabbitMQ, only when Spring AMQP's {@code spring-rabbit} is on the class
 * path: every {@link RabbitTemplate} bean adds the current scope's token to the messages it publishes (a
 * before-publish post-processor), and every listener container factory bean (the one
 * {@code @RabbitListener} uses) gives its listeners a scope opened with the message's token (an
 * after-receive post-processor and an advice that closes it: {@link RyowRabbitPropagation}). The
 * application's own post-processors and advice stay. Off with {@code ryow.messaging.enabled=false}; the
 * token is signed with {@code ryow.token-key}, in the {@value MessageTokens#DEFAULT_HEADER} header.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.amqp.rabbit.core.RabbitTemplate")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.messaging", name = "enabled", matchIfMissing = true)
public class RyowRabbitAutoConfiguration {
  /** Created by Spring. */
  public RyowRabbitAutoConfiguration() {}

  /** The post-processors and advice, with the starter's codec. */
  @Bean
  @ConditionalOnMissingBean
  RyowRabbitPropagation ryowRabbitPropagation(RyowSettings settings) {
    return new RyowRabbitPropagation(MessageTokens.of(settings.tokenCodec()));
  }

  /** Adds them to the application's templates and listener container factories. */
  @Bean
  static BeanPostProcessor ryowRabbitPostProcessor(ObjectProvider<RyowRabbitPropagation> propagation) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof RabbitTemplate template) {
          template.addBeforePublishPostProcessors(propagation.getObject().beforePublish());
        } else if (bean instanceof AbstractRabbitListenerContainerFactory<?> factory) {
          addTo(factory, propagation.getObject());
        }
        return bean;
      }
    };
  }

  static void addTo(AbstractRabbitListenerContainerFactory<?> factory, RyowRabbitPropagation propagation) {
    // Outermost advice: the scope is closed after everything else the delivery does.
    List<Advice> advice = new ArrayList<>();
    advice.add(propagation.listenerAdvice());
    Advice[] theirs = factory.getAdviceChain();
    if (theirs != null) {
      advice.addAll(Arrays.asList(theirs));
    }
    factory.setAdviceChain(advice.toArray(Advice[]::new));
    // First after-receive post-processor: the application's run inside the scope. Spring AMQP has no
    // getter for them on the factory: read once at start-up.
    List<MessagePostProcessor> processors = new ArrayList<>();
    processors.add(propagation.afterReceive());
    DirectFieldAccessor fields = new DirectFieldAccessor(factory);
    if (fields.isReadableProperty("afterReceivePostProcessors")
        && fields.getPropertyValue("afterReceivePostProcessors") instanceof MessagePostProcessor[] existing) {
      processors.addAll(Arrays.asList(existing));
    }
    factory.setAfterReceivePostProcessors(processors.toArray(MessagePostProcessor[]::new));
  }

  /** For tests: the factory's after-receive post-processors. */
  static MessagePostProcessor @Nullable [] afterReceive(AbstractRabbitListenerContainerFactory<?> factory) {
    return (MessagePostProcessor[]) new DirectFieldAccessor(factory).getPropertyValue("afterReceivePostProcessors");
  }
}
