package dev.ryow.spring.boot;

import java.lang.reflect.Method;
import org.springframework.aop.Pointcut;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Per-call freshness: {@link ReadYourWrites}, {@link FreshRead} and {@link AllowStale} on Spring beans'
 * methods and classes, applied with Spring AOP (proxies; no AspectJ weaving). The advice
 * ({@link RyowFreshnessInterceptor}) has order {@link #ORDER}, ahead of {@code @Transactional}'s
 * (lowest precedence by default): the scope is open before the transaction begins and until after it
 * ends, so the commit's writes count in it. {@code ryow.annotations.enabled=false} switches it off. An
 * element carrying two of the annotations fails the application's start with a message naming it.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.aop.support.AbstractPointcutAdvisor")
@ConditionalOnProperty(prefix = "ryow.annotations", name = "enabled", matchIfMissing = true)
@Import(RyowFreshnessAutoConfiguration.AutoProxy.class)
public class RyowFreshnessAutoConfiguration {
  /** The advisor's order: ahead of {@code @Transactional}'s default, {@link Ordered#LOWEST_PRECEDENCE}. */
  public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

  /** Created by Spring. */
  public RyowFreshnessAutoConfiguration() {}

  /** The advice and the pointcut that finds the annotations. */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  @ConditionalOnMissingBean
  static RyowFreshnessAdvisor ryowFreshnessAdvisor() {
    return new RyowFreshnessAdvisor(new RyowFreshnessInterceptor());
  }

  /** The advisor: matches methods that {@link Freshness#of} finds an annotation for. */
  public static final class RyowFreshnessAdvisor extends AbstractPointcutAdvisor {
    private static final long serialVersionUID = 1L;
    private final transient RyowFreshnessInterceptor interceptor;
    private final transient Pointcut pointcut;

    RyowFreshnessAdvisor(RyowFreshnessInterceptor interceptor) {
      this.interceptor = interceptor;
      this.pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
          return interceptor.freshness(method, targetClass) != null;
        }
      };
      setOrder(ORDER);
    }

    @Override
    public Pointcut getPointcut() {
      return pointcut;
    }

    @Override
    public RyowFreshnessInterceptor getAdvice() {
      return interceptor;
    }
  }

  /**
   * Makes sure an auto-proxy creator runs (Spring Boot's AOP auto-configuration registers one too; this
   * covers {@code spring.aop.auto=false}).
   */
  static final class AutoProxy implements ImportBeanDefinitionRegistrar {
    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
      AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
  }
}
