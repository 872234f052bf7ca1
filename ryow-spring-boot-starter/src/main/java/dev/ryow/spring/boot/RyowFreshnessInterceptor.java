package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyScope;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;

/**
 * Runs a method annotated {@link ReadYourWrites}, {@link FreshRead} or {@link AllowStale} (or whose class
 * is) inside the matching {@link ConsistencyScope}, closed when it returns or throws. The scope is bound
 * to the calling thread: reads the method hands to other threads (an {@code @Async} call, a reactive
 * pipeline) run outside it.
 */
public final class RyowFreshnessInterceptor implements MethodInterceptor {
  private final Map<MethodClassKey, Optional<Freshness>> cache = new ConcurrentHashMap<>();

  /** Created by {@link RyowFreshnessAutoConfiguration}. */
  public RyowFreshnessInterceptor() {}

  @Override
  public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
    Object target = invocation.getThis();
    Freshness f = freshness(invocation.getMethod(), target == null ? null : AopUtils.getTargetClass(target));
    if (f == null) {
      return invocation.proceed();
    }
    ConsistencyScope scope = f.open();
    try {
      return invocation.proceed();
    } finally {
      scope.close();
    }
  }

  /** The annotation that applies, found once per method and class; null when none does. */
  @Nullable Freshness freshness(Method method, @Nullable Class<?> targetClass) {
    return cache.computeIfAbsent(new MethodClassKey(method, targetClass),
        k -> Optional.ofNullable(Freshness.of(method, targetClass))).orElse(null);
  }
}
