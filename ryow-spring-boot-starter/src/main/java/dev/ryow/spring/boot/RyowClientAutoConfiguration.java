package dev.ryow.spring.boot;

import dev.ryow.jdbc.web.FilterSetting;
import dev.ryow.jdbc.web.HttpTokens;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Carries read-your-writes on calls to other services: {@link RyowClientHttpRequestInterceptor} on every
 * {@link RestTemplate} and {@link RestClient.Builder} bean (Spring's own types, so the same on Spring Boot
 * 3.5 and 4). The token goes in {@code ryow.web.header-name}, signed with {@code ryow.token-key}: the
 * called service's filter must share the key. {@code ryow.client.enabled=false} switches it off;
 * {@code ryow.client.merge-response=false} sends the token but ignores the one the called service answers with.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.http.client.ClientHttpRequestInterceptor")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.client", name = "enabled", matchIfMissing = true)
public class RyowClientAutoConfiguration {
  /** Created by Spring. */
  public RyowClientAutoConfiguration() {}

  /** The interceptor, with the starter's codec and header. */
  @Bean
  @ConditionalOnMissingBean
  RyowClientHttpRequestInterceptor ryowClientHttpRequestInterceptor(RyowStarterProperties properties, RyowSettings settings,
      Environment environment) {
    return new RyowClientHttpRequestInterceptor(HttpTokens.of(
        settings.tokenCodec(), FilterSettingsBinder.of(environment).value(FilterSetting.HEADER_NAME),
        properties.getClient().isMergeResponse()));
  }

  /** Adds the interceptor to the application's RestTemplate and RestClient.Builder beans. */
  @Bean
  static BeanPostProcessor ryowHttpClientPostProcessor(ObjectProvider<RyowClientHttpRequestInterceptor> interceptor) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof RestTemplate template) {
          List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>(template.getInterceptors());
          addOnce(interceptors, interceptor.getObject());
          template.setInterceptors(interceptors);
        } else if (bean instanceof RestClient.Builder builder) {
          builder.requestInterceptors(list -> addOnce(list, interceptor.getObject()));
        }
        return bean;
      }
    };
  }

  private static void addOnce(List<ClientHttpRequestInterceptor> interceptors, RyowClientHttpRequestInterceptor ours) {
    if (interceptors.stream().noneMatch(RyowClientHttpRequestInterceptor.class::isInstance)) {
      interceptors.add(ours);
    }
  }
}
