package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module {@code dev.ryow.jdbc}: it exports the public API only, and it resolves on the module path
 * with nothing but Connector/J and SLF4J (servlet, Micrometer and JSpecify are optional), where the
 * ServiceLoader finds its {@code java.sql.Driver}.
 */
class ModuleDescriptorTest {
  private static final Path CLASSES = Path.of("target", "classes");

  @Test
  void exportsThePublicApiOnly() throws Exception {
    ModuleDescriptor d;
    try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
      d = ModuleDescriptor.read(in);
    }
    assertThat(d.name()).isEqualTo("dev.ryow.jdbc");
    assertThat(d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source))
        .containsExactlyInAnyOrder("dev.ryow.jdbc", "dev.ryow.jdbc.web", "dev.ryow.jdbc.messaging", "dev.ryow.jdbc.micrometer",
            "dev.ryow.jdbc.gtid", "dev.ryow.jdbc.metrics");
    assertThat(d.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
            .map(e -> e.source() + " to " + e.targets()))
        .containsExactly("dev.ryow.jdbc.config to [dev.ryow.spring.boot]");
    assertThat(d.opens()).isEmpty();
    assertThat(d.provides()).singleElement().satisfies(p -> {
      assertThat(p.service()).isEqualTo("java.sql.Driver");
      assertThat(p.providers()).containsExactly(RyowDriver.class.getName());
    });
    Set<String> optional = d.requires().stream()
        .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
        .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
    assertThat(optional).containsExactlyInAnyOrder("org.jspecify", "jakarta.servlet", "micrometer.core", "java.net.http");
  }

  @Test
  void resolvesOnTheModulePathWithConnectorJAndSlf4jAndServesTheDriver() throws Exception {
    List<Path> path = List.of(CLASSES.toAbsolutePath(), jarOf(com.mysql.cj.jdbc.Driver.class),
        jarOf(org.slf4j.Logger.class));
    ModuleFinder finder = ModuleFinder.of(path.toArray(Path[]::new));
    ModuleLayer boot = ModuleLayer.boot();
    Configuration cf = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("dev.ryow.jdbc"));
    assertThat(cf.findModule("mysql.connector.j")).as("Connector/J by its derived name").isPresent();
    ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    Module driverModule = layer.findModule("dev.ryow.jdbc").orElseThrow();
    assertThat(driverModule.getDescriptor().isAutomatic()).isFalse();
    List<String> drivers = ServiceLoader.load(layer, Driver.class).stream()
        .filter(p -> p.type().getModule() == driverModule)
        .map(p -> p.type().getName()).toList();
    assertThat(drivers).containsExactly(RyowDriver.class.getName());
    Driver driver = ServiceLoader.load(layer, Driver.class).stream()
        .filter(p -> p.type().getModule() == driverModule).findFirst().orElseThrow().get();
    assertThat(driver.getClass()).isNotSameAs(RyowDriver.class);  // the layer's own copy
    assertThat(driver.acceptsURL("jdbc:ryow:mysql://primary:3306,replica:3306/db")).isTrue();
    assertThat(driverModule.isExported("dev.ryow.jdbc.route")).isFalse();
  }

  private static Path jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
