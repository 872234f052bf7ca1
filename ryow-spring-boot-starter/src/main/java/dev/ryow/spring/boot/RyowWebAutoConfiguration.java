package dev.ryow.spring.boot;

import dev.ryow.jdbc.web.RyowConsistencyFilter;
import dev.ryow.jdbc.web.FilterSetting;
import jakarta.servlet.DispatcherType;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Registers {@link RyowConsistencyFilter} in servlet web applications, so that a user's reads see that
 * user's writes on whichever instance serves the next request: the token travels in a cookie (default)
 * or a header, signed with {@code ryow.token-key}. {@code ryow.web.enabled=false} switches it off; a
 * filter or {@code FilterRegistrationBean} of {@link RyowConsistencyFilter} defined by the application
 * replaces it.
 */
@AutoConfiguration(after = RyowAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@Conditional(OnRyowUrlCondition.class)
@ConditionalOnProperty(prefix = "ryow.web", name = "enabled", matchIfMissing = true)
public class RyowWebAutoConfiguration {
  /** The filter's bean and registration name. */
  public static final String FILTER_NAME = "ryowConsistencyFilter";

  /** Created by Spring. */
  public RyowWebAutoConfiguration() {}

  /** The consistency filter, registered for {@code ryow.web.url-patterns} at {@code ryow.web.order}. */
  @Bean(FILTER_NAME)
  @ConditionalOnMissingBean(value = RyowConsistencyFilter.class, parameterizedContainer = FilterRegistrationBean.class)
  FilterRegistrationBean<RyowConsistencyFilter> ryowConsistencyFilter(RyowStarterProperties properties, RyowSettings settings,
      Environment environment) {
    RyowStarterProperties.Web web = properties.getWeb();
    FilterSettingsBinder filterSettings = FilterSettingsBinder.of(environment);
    String header = filterSettings.value(FilterSetting.HEADER_NAME);
    RyowConsistencyFilter.Builder filter = RyowConsistencyFilter.builder()
        .codec(settings.tokenCodec())
        .rejectInvalidTokens(filterSettings.value(FilterSetting.INVALID_TOKEN_REJECTED))
        .scopeMode(settings.requestScopeMode());
    if (web.getTransport() == RyowStarterProperties.Transport.COOKIE) {
      filter.header(null).cookie(filterSettings.cookie());
      if (web.isServiceCalls()) {
        filter.callerHeader(header);
      }
    } else {
      filter.header(header);
    }
    if (!settings.tokensSigned()) {
      LoggerFactory.getLogger(RyowWebAutoConfiguration.class).warn("ryow.token-key is not set: consistency tokens are"
          + " unsigned, and a client can send one that makes its reads wait (each at most ryow.wait-timeout) or go to the"
          + " primary. Set the same ryow.token-key (16 characters or more) on every instance.");
    }
    FilterRegistrationBean<RyowConsistencyFilter> registration = new FilterRegistrationBean<>(filter.build());
    registration.setName(FILTER_NAME);
    registration.setUrlPatterns(web.getUrlPatterns());
    registration.setOrder(web.getOrder());
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    return registration;
  }
}
