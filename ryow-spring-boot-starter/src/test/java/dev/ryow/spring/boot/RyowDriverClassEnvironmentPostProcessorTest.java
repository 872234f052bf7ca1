package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The driver class default for a jdbc:ryow: URL (the two-instance IT starts real applications without naming it). */
class RyowDriverClassEnvironmentPostProcessorTest {
  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("application", properties));
    new RyowDriverClassEnvironmentPostProcessor().postProcessEnvironment(env, new SpringApplication());
    return env;
  }

  @Test
  void aJdbcRyowUrlDefaultsTheDriverClass() {
    assertThat(environment(Map.of("spring.datasource.url", StarterContexts.URL))
            .getProperty("spring.datasource.driver-class-name"))
        .isEqualTo("dev.ryow.jdbc.RyowDriver");
  }

  @Test
  void theApplicationsDriverClassWinsAndOtherUrlsAreLeftAlone() {
    assertThat(environment(Map.of("spring.datasource.url", StarterContexts.URL, "spring.datasource.driver-class-name", "x.Y"))
        .getProperty("spring.datasource.driver-class-name")).isEqualTo("x.Y");
    assertThat(environment(Map.of("spring.datasource.url", "jdbc:mysql://h/db"))
            .getProperty("spring.datasource.driver-class-name"))
        .isNull();
    assertThat(environment(Map.of()).getProperty("spring.datasource.driver-class-name")).isNull();
  }

  @Test
  void listedForSpringBoot() throws Exception {
    var factories = new java.util.Properties();
    try (var in = getClass().getResourceAsStream("/META-INF/spring.factories")) {
      factories.load(in);
    }
    assertThat(factories.getProperty("org.springframework.boot.env.EnvironmentPostProcessor"))
        .isEqualTo(RyowDriverClassEnvironmentPostProcessor.class.getName());
  }
}
