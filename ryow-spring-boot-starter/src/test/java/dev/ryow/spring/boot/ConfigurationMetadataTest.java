package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.web.FilterSetting;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.configurationmetadata.ValueHint;

/**
 * The starter's {@code META-INF/spring-configuration-metadata.json}, read as IDEs read it: every driver
 * property of {@link RyowProperties#ALL} under its Spring name with type, default, description and
 * choices, nothing else flat under {@code ryow.}, and the starter's own settings.
 */
class ConfigurationMetadataTest {
  private static Map<String, ConfigurationMetadataProperty> properties() throws Exception {
    List<InputStream> files = new ArrayList<>();
    for (var url : Collections.list(ConfigurationMetadataTest.class.getClassLoader()
        .getResources("META-INF/spring-configuration-metadata.json"))) {
      if (url.toString().contains("ryow")) {
        files.add(url.openStream());
      }
    }
    assertThat(files).as("the starter's metadata file on the class path").hasSize(1);
    try (InputStream in = files.get(0)) {
      ConfigurationMetadataRepository repository =
          ConfigurationMetadataRepositoryJsonBuilder.create().withJsonResource(in).build();
      return repository.getAllProperties();
    }
  }

  @Test
  void everyDriverPropertyIsThereAsTheStarterBindsIt() throws Exception {
    Map<String, ConfigurationMetadataProperty> all = properties();
    for (RyowProperty<?> p : RyowProperties.ALL) {
      String name = DriverSettingNames.springName(p);
      assertThat(all).as(name).containsKey(name);
      ConfigurationMetadataProperty m = all.get(name);
      assertThat(m.getType()).as(name).isEqualTo(p.defaultValue() instanceof Integer ? "java.lang.Integer" : "java.lang.String");
      assertThat(m.getDescription()).as(name).startsWith(p.description()).contains(p.accepted()).contains(p.name());
      if (p.defaultText().isEmpty()) {
        assertThat(m.getDefaultValue()).as(name).isNull();
      } else {
        assertThat(String.valueOf(m.getDefaultValue())).as(name).isEqualTo(p.defaultText());
      }
      assertThat(m.getHints().getValueHints().stream().map(ValueHint::getValue).map(String::valueOf).toList())
          .as(name).isEqualTo(p.choices());
    }
  }

  @Test
  void everyFilterSettingIsThereWithTheFiltersDefault() throws Exception {
    Map<String, ConfigurationMetadataProperty> all = properties();
    for (FilterSetting<?> f : FilterSetting.ALL) {
      String name = "ryow.web." + f.springName();
      assertThat(all).as(name).containsKey(name);
      assertThat(String.valueOf(all.get(name).getDefaultValue())).as(name).isEqualTo(f.defaultText());
      assertThat(all.get(name).getDescription()).as(name).startsWith(f.description()).contains(f.parameter());
    }
  }

  @Test
  void nothingElseIsFlatUnderRyowAndTheStartersOwnSettingsAreThere() throws Exception {
    Map<String, ConfigurationMetadataProperty> all = properties();
    List<String> flat = all.keySet().stream()
        .filter(n -> n.startsWith("ryow.") && n.indexOf('.', "ryow.".length()) < 0).sorted().toList();
    assertThat(flat)
        .containsExactlyInAnyOrderElementsOf(RyowProperties.ALL.stream().map(DriverSettingNames::springName).toList());
    assertThat(all).containsKeys("ryow.web.enabled", "ryow.web.transport", "ryow.web.header-name", "ryow.web.invalid-token",
        "ryow.web.url-patterns", "ryow.web.order", "ryow.web.cookie.name", "ryow.web.cookie.path", "ryow.web.cookie.http-only",
        "ryow.web.cookie.secure", "ryow.web.cookie.same-site", "ryow.web.cookie.max-age", "ryow.web.service-calls",
        "ryow.client.enabled", "ryow.client.merge-response", "ryow.messaging.enabled", "ryow.annotations.enabled",
        "ryow.metrics.enabled",
        "ryow.datasource.enabled");
    assertThat(all.get("ryow.web.cookie.name").getDefaultValue()).isEqualTo("RYOW_TOKEN");
    assertThat(all.keySet().stream().filter(n -> n.startsWith("ryow."))
            .map(n -> n.substring(5, n.indexOf('.', 5) < 0 ? n.length() : n.indexOf('.', 5))))
        .allMatch(first -> DriverSettingNames.STARTER_GROUPS.contains(first) || flat.contains("ryow." + first));
  }
}
