import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.web.FilterSetting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the driver's {@code ryow.*} properties as Spring Boot configuration metadata
 * ({@code META-INF/additional-spring-configuration-metadata.json}), from the driver's one property
 * table, {@link RyowProperties#ALL}. Run by the build (exec-maven-plugin, single-file source launch)
 * before compilation; the configuration processor merges the file into the starter's
 * {@code spring-configuration-metadata.json}. Names are the Spring (kebab-case) form of the driver's
 * names, as {@code dev.ryow.spring.boot.DriverSettingNames} binds them: {@code ryow.waitTimeout} is
 * {@code ryow.wait-timeout}; {@code ConfigurationMetadataTest} checks both against each other. The consistency
 * filter's own settings ({@code ryow.web.header-name}, {@code ryow.web.cookie.*}...) come the same way from their one
 * definition, {@link FilterSetting#ALL}.
 */
public final class DriverPropertiesMetadata {
  private DriverPropertiesMetadata() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: DriverPropertiesMetadata OUTPUT.json");
    }
    StringBuilder json = new StringBuilder("{\n  \"properties\": [");
    String sep = "\n";
    for (RyowProperty<?> p : RyowProperties.ALL) {
      json.append(sep).append("    {\n");
      json.append("      \"name\": ").append(quote(springName(p.name()))).append(",\n");
      json.append("      \"type\": ").append(quote(javaType(p))).append(",\n");
      json.append("      \"description\": ")
          .append(quote(p.description() + " Accepted: " + p.accepted() + ". Driver property " + p.name() + "."));
      if (!p.defaultText().isEmpty()) {
        json.append(",\n      \"defaultValue\": ")
            .append(p.defaultValue() instanceof Integer ? p.defaultText() : quote(p.defaultText()));
      }
      json.append("\n    }");
      sep = ",\n";
    }
    for (FilterSetting<?> f : FilterSetting.ALL) {
      json.append(sep).append("    {\n");
      json.append("      \"name\": ").append(quote("ryow.web." + f.springName())).append(",\n");
      json.append("      \"type\": \"java.lang.String\",\n");
      json.append("      \"description\": ").append(quote(f.description() + " Filter init parameter " + f.parameter() + "."));
      json.append(",\n      \"defaultValue\": ").append(quote(f.defaultText()));
      json.append("\n    }");
    }
    json.append("\n  ],\n  \"hints\": [");
    sep = "\n";
    for (RyowProperty<?> p : RyowProperties.ALL) {
      if (p.choices().isEmpty()) {
        continue;
      }
      json.append(sep).append("    {\n      \"name\": ").append(quote(springName(p.name()))).append(",\n      \"values\": [");
      String valueSep = "\n";
      for (String choice : p.choices()) {
        json.append(valueSep).append("        { \"value\": ").append(quote(choice)).append(" }");
        valueSep = ",\n";
      }
      json.append("\n      ]\n    }");
      sep = ",\n";
    }
    json.append("\n  ]\n}\n");
    Path out = Path.of(args[0]);
    Files.createDirectories(out.getParent());
    Files.writeString(out, json, StandardCharsets.UTF_8);
  }

  /** {@code ryow.waitTimeout} → {@code ryow.wait-timeout}. */
  static String springName(String driverName) {
    StringBuilder out = new StringBuilder(driverName.length() + 4);
    for (int i = 0; i < driverName.length(); i++) {
      char c = driverName.charAt(i);
      if (Character.isUpperCase(c)) {
        out.append('-').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String javaType(RyowProperty<?> p) {
    return p.defaultValue() instanceof Integer ? "java.lang.Integer" : "java.lang.String";
  }

  private static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
