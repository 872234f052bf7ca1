package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyScope;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * What one of {@link ReadYourWrites}, {@link FreshRead} and {@link AllowStale} asks of a method's reads,
 * and the {@link ConsistencyScope} that gives it. Found once per method and class
 * ({@link RyowFreshnessInterceptor} caches it).
 *
 * @param kind which annotation
 * @param maxLagMillis {@link AllowStale#maxLagMillis()}, or -1
 */
record Freshness(Kind kind, long maxLagMillis) {
  /** The three annotations. */
  enum Kind {
    READ_YOUR_WRITES,
    FRESH_READ,
    ALLOW_STALE
  }

  static final Freshness READ_YOUR_WRITES = new Freshness(Kind.READ_YOUR_WRITES, -1);
  static final Freshness FRESH_READ = new Freshness(Kind.FRESH_READ, -1);

  /** Opens the scope, bound to the current thread. */
  ConsistencyScope open() {
    return switch (kind) {
      case READ_YOUR_WRITES -> ConsistencyScope.readYourWrites();
      case FRESH_READ -> ConsistencyScope.freshRead();
      case ALLOW_STALE -> ConsistencyScope.allowStale(maxLagMillis);
    };
  }

  /**
   * The annotation that applies to {@code method} called on {@code targetClass}: the method's own (or the
   * one it overrides or implements), else its class's; null when there is none.
   *
   * @throws IllegalStateException if one element carries more than one of them, or a negative bound
   */
  static @Nullable Freshness of(Method method, @Nullable Class<?> targetClass) {
    Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
    Freshness onMethod = on(specific, specific);
    if (onMethod == null && !specific.equals(method)) {
      onMethod = on(method, method);
    }
    if (onMethod != null) {
      return onMethod;
    }
    Class<?> type = targetClass != null ? targetClass : method.getDeclaringClass();
    return on(type, specific);
  }

  private static @Nullable Freshness on(AnnotatedElement element, Method forMessage) {
    boolean ryw = AnnotatedElementUtils.hasAnnotation(element, ReadYourWrites.class);
    boolean fresh = AnnotatedElementUtils.hasAnnotation(element, FreshRead.class);
    AllowStale stale = AnnotatedElementUtils.findMergedAnnotation(element, AllowStale.class);
    int found = (ryw ? 1 : 0) + (fresh ? 1 : 0) + (stale != null ? 1 : 0);
    if (found > 1) {
      throw new IllegalStateException("More than one of @ReadYourWrites, @FreshRead and @AllowStale on " + element
          + " (for " + forMessage.toGenericString() + "): keep the one its reads need");
    }
    if (stale != null) {
      if (stale.maxLagMillis() < 0) {
        throw new IllegalStateException("@AllowStale(maxLagMillis = " + stale.maxLagMillis() + ") on " + element
            + ": the bound must be 0 or more (Long.MAX_VALUE for any replica in rotation)");
      }
      return new Freshness(Kind.ALLOW_STALE, stale.maxLagMillis());
    }
    return ryw ? READ_YOUR_WRITES : fresh ? FRESH_READ : null;
  }
}
