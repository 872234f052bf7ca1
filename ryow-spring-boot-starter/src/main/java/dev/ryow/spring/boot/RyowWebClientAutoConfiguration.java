package dev.ryow.spring.boot;

import dev.ryow.jdbc.web.FilterSetting;
import dev.ryow.jdbc.web.HttpTokens;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Carries read-your-writes on {@code WebClient} calls to other services: {@link RyowExchangeFilterFunction}
 * and its scope capture on every {@link WebClient.Builder} bean (Spring's own type, so the same on Spring
 * Boot 3.5 and 4), only when Spring WebFlux is on the class path. The same switches as
 * {@link RyowClientAutoConfiguration}: {@code ryow.client.enabled}, {@code ryow.client.merge-response},
 * the token in {@code ryow.web.header-name}, signed with {@code ryow.token-key}.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.web.reactive.function.client.WebClient")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.client", name = "enabled", matchIfMissing = true)
public class RyowWebClientAutoConfiguration {
  /** Created by Spring. */
  public RyowWebClientAutoConfiguration() {}

  /** The filter, with the starter's codec and header. */
  @Bean
  @ConditionalOnMissingBean
  RyowExchangeFilterFunction ryowExchangeFilterFunction(RyowStarterProperties properties, RyowSettings settings,
      Environment environment) {
    return new RyowExchangeFilterFunction(HttpTokens.of(
        settings.tokenCodec(), FilterSettingsBinder.of(environment).value(FilterSetting.HEADER_NAME),
        properties.getClient().isMergeResponse()));
  }

  /** Adds the filter and the scope capture to the application's WebClient.Builder beans. */
  @Bean
  static BeanPostProcessor ryowWebClientPostProcessor(ObjectProvider<RyowExchangeFilterFunction> filter) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof WebClient.Builder builder) {
          filter.getObject().addTo(builder);
        }
        return bean;
      }
    };
  }
}
