package dev.ryow.spring.boot;

import dev.ryow.jdbc.config.RyowUrl;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code spring.datasource.url} is a {@code jdbc:ryow:} URL: the starter is silent otherwise. */
final class OnRyowUrlCondition extends SpringBootCondition {
  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    ConditionMessage.Builder message = ConditionMessage.forCondition("jdbc:ryow: DataSource");
    String url = Binder.get(context.getEnvironment()).bind("spring.datasource.url", String.class).orElse(null);
    if (url == null) {
      return ConditionOutcome.noMatch(message.didNotFind("property").items("spring.datasource.url"));
    }
    if (!RyowUrl.accepts(url)) {
      return ConditionOutcome.noMatch(message.because("spring.datasource.url is not a " + RyowUrl.SCHEME + " URL"));
    }
    return ConditionOutcome.match(message.because("spring.datasource.url is a " + RyowUrl.SCHEME + " URL"));
  }
}
