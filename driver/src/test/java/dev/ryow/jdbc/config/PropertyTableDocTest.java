package dev.ryow.jdbc.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The property reference in docs/configuration.md is generated from the definitions; this keeps the two in step. */
class PropertyTableDocTest {

  @Test
  void theConfigurationPageCarriesTheGeneratedTable() throws IOException {
    Path page = Path.of("..", "docs", "configuration.md");
    assertThat(page).exists();
    String text = Files.readString(page).replace("\r\n", "\n");
    assertThat(text)
        .as("docs/configuration.md property table is out of date; regenerate it with PropertyTable.main")
        .contains(PropertyTable.markdown());
  }
}
