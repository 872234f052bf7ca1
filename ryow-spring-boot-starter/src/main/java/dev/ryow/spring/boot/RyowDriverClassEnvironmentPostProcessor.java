package dev.ryow.spring.boot;

import dev.ryow.jdbc.RyowDriver;
import dev.ryow.jdbc.config.RyowUrl;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes {@link RyowDriver} the default {@code spring.datasource.driver-class-name} when
 * {@code spring.datasource.url} is a {@code jdbc:ryow:} URL: Spring Boot derives the driver class from
 * the URL's scheme and knows only its own list, so without this the application would have to name it.
 * The default sits below every other property source: a value the application sets wins.
 */
public final class RyowDriverClassEnvironmentPostProcessor implements EnvironmentPostProcessor {
  /** The name of the property source that holds the default. */
  public static final String SOURCE_NAME = "ryowDriverClassDefault";

  /** Created by Spring Boot (listed in {@code META-INF/spring.factories}). */
  public RyowDriverClassEnvironmentPostProcessor() {}

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    String url = Binder.get(environment).bind("spring.datasource.url", String.class).orElse(null);
    if (url != null && RyowUrl.accepts(url) && !environment.getPropertySources().contains(SOURCE_NAME)) {
      environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME,
          Map.of("spring.datasource.driver-class-name", RyowDriver.class.getName())));
    }
  }
}
