package dev.ryow.jdbc.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's property reference is generated from the definitions; this keeps the two in step. */
class ReadmePropertyTableTest {

  @Test
  void readmeCarriesTheGeneratedTable() throws IOException {
    Path readme = Path.of("..", "README.md");
    assertThat(readme).exists();
    String text = Files.readString(readme).replace("\r\n", "\n");
    assertThat(text)
        .as("README.md property table is out of date; regenerate it with PropertyTable.main")
        .contains(PropertyTable.markdown());
  }
}
