package dev.ryow.spring.boot;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.util.ClassUtils;

/**
 * Context runners with the starter's auto-configurations, as the application's class path lists them
 * ({@code AutoConfiguration.imports}), and Spring Boot's DataSource auto-configuration of whichever
 * line is on the class path: the same tests run on Spring Boot 3.5 (here) and 4 (ryow-spring-boot-starter-tests).
 */
final class StarterContexts {
  /** A {@code jdbc:ryow:} URL whose servers refuse connections at once: nothing here connects on its own. */
  static final String URL = "jdbc:ryow:mysql://127.0.0.1:1,127.0.0.1:2/app";
  static final String KEY = "a-token-key-of-24-chars!";
  private static final String BOOT4_DATA_SOURCE = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";
  private static final String BOOT3_DATA_SOURCE = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration";

  private StarterContexts() {}

  /** Whether Spring Boot 4 is on the class path (else 3.5). */
  static boolean boot4() {
    return ClassUtils.isPresent(BOOT4_DATA_SOURCE, StarterContexts.class.getClassLoader());
  }

  static AutoConfigurations autoConfigurations() {
    ClassLoader loader = StarterContexts.class.getClassLoader();
    List<Class<?>> classes = new ArrayList<>();
    classes.add(ClassUtils.resolveClassName(boot4() ? BOOT4_DATA_SOURCE : BOOT3_DATA_SOURCE, loader));
    for (String name : ImportCandidates.load(AutoConfiguration.class, loader)) {
      if (name.startsWith("dev.ryow.")) {
        classes.add(ClassUtils.resolveClassName(name, loader));
      }
    }
    return AutoConfigurations.of(classes.toArray(Class<?>[]::new));
  }

  /**
   * Context runners do not run environment post-processors: the driver class that
   * {@link RyowDriverClassEnvironmentPostProcessor} defaults to in an application is set here.
   */
  private static final String[] FAIL_FAST = {
    "spring.datasource.driver-class-name=dev.ryow.jdbc.RyowDriver",
    "spring.datasource.username=app",
    "spring.datasource.password=app-password",
    "spring.datasource.hikari.connection-timeout=250",
  };

  /** A servlet web application with the starter and a HikariDataSource. */
  static WebApplicationContextRunner web() {
    return new WebApplicationContextRunner().withConfiguration(autoConfigurations()).withPropertyValues(FAIL_FAST);
  }

  /** A non-web application with the starter and a HikariDataSource. */
  static ApplicationContextRunner plain() {
    return new ApplicationContextRunner().withConfiguration(autoConfigurations()).withPropertyValues(FAIL_FAST);
  }
}
