package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** These tests run on both Spring Boot lines: each run checks that it has the line its build meant. */
class BootLineTest {
  @Test
  void runsOnTheSpringBootLineTheBuildChose() {
    String expected = System.getProperty("ryow.expectedBootLine");
    assertThat(expected).as("system property ryow.expectedBootLine, set by the build").isNotBlank();
    assertThat(SpringBootVersion.getVersion()).startsWith(expected + ".");
    assertThat(StarterContexts.boot4()).isEqualTo(expected.equals("4"));
  }
}
