package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.config.Masking;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import java.sql.DriverPropertyInfo;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What JDBC tools ask a driver before they connect: properties, versions, compliance, logger. */
class DriverConventionsTest {
  private final RyowDriver driver = new RyowDriver();

  private Map<String, DriverPropertyInfo> info(String url, Properties props) throws Exception {
    return Arrays.stream(driver.getPropertyInfo(url, props))
        .collect(Collectors.toMap(p -> p.name, Function.identity(), (a, b) -> {
          throw new AssertionError("property listed twice: " + a.name);
        }));
  }

  @Test
  void propertyInfoListsEveryRyowPropertyWithDescriptionDefaultAndChoices() throws Exception {
    Map<String, DriverPropertyInfo> all = info("jdbc:ryow:mysql://p,r/db", new Properties());
    for (RyowProperty<?> p : RyowProperties.ALL) {
      DriverPropertyInfo pi = all.get(p.name());
      assertThat(pi).as(p.name()).isNotNull();
      assertThat(pi.value).isEqualTo(Masking.isSecretKey(p.name()) ? null : p.defaultText());
      assertThat(pi.description).contains(p.description()).contains("Default: " + p.defaultText());
      assertThat(pi.required).isFalse();
      if (p.choices().isEmpty()) {
        assertThat(pi.choices).isNull();
      } else {
        assertThat(pi.choices).containsExactlyElementsOf(p.choices());
      }
    }
    assertThat(all.get("ryow.fallback").choices).containsExactly("primary", "error", "stale");
  }

  @Test
  void propertyInfoMergesConnectorJsPropertiesForThePassThroughPart() throws Exception {
    Map<String, DriverPropertyInfo> all = info("jdbc:ryow:mysql://p,r/db", new Properties());
    assertThat(all).containsKeys("connectTimeout", "sslMode", "user", "password");
    assertThat(all.get("connectTimeout").description).isNotBlank();
    assertThat(all.keySet().stream().filter(k -> k.startsWith(RyowProperties.PREFIX)))
        .hasSameSizeAs(RyowProperties.ALL);
  }

  @Test
  void propertyInfoNeverReportsASecret() throws Exception {
    Properties props = new Properties();
    props.setProperty("password", "TopSecret1");
    props.setProperty("ryow.tokenKey", "0123456789abcdef-TokenKey");
    props.setProperty("trustCertificateKeyStorePassword", "StoreSecret1");
    props.put("connectTimeout", 1234);
    for (String url : new String[] {"jdbc:ryow:mysql://p,r/db", "jdbc:ryow:mysql://p,r/db?user=u&password=UrlSecret1"}) {
      Map<String, DriverPropertyInfo> all = info(url, props);
      assertThat(all.get("password").value).isNull();
      assertThat(all.get("ryow.tokenKey").value).isNull();
      assertThat(all.get("connectTimeout").value).as("an Integer is honoured").isEqualTo("1234");
      for (DriverPropertyInfo pi : all.values()) {
        String text = pi.value + " " + pi.description + " " + Arrays.toString(pi.choices);
        assertThat(text).as(pi.name).doesNotContain("TopSecret1", "TokenKey", "StoreSecret1", "UrlSecret1");
      }
    }
    assertThatThrownBy(() -> driver.getPropertyInfo("jdbc:ryow:mysql://p,r/db?password=pa&ss-word-tail", props))
        .hasMessageNotContaining("ss-word-tail");
  }

  @Test
  void propertyInfoReportsGivenValuesAndThePropertiesWinAsAtConnect() throws Exception {
    Properties props = new Properties();
    props.setProperty("ryow.waitTimeout", "250");
    props.setProperty("ryow.fallback", "error");
    props.setProperty("connectTimeout", "1234");
    Map<String, DriverPropertyInfo> all = info("jdbc:ryow:mysql://p,r/db?ryow.fallback=stale", props);
    assertThat(all.get("ryow.waitTimeout").value).isEqualTo("250");
    assertThat(all.get("ryow.fallback").value).as("the properties win over the URL, as with Connector/J")
        .isEqualTo("error");
    assertThat(all.get("connectTimeout").value).isEqualTo("1234");
    assertThat(info("jdbc:mysql://p/db", props).get("ryow.waitTimeout").value).isEqualTo("250");
  }

  @Test
  void versionComesFromTheBuild() {
    String expected = System.getProperty("ryow.expectedVersion");
    assertThat(expected).as("surefire passes ${project.version}").isNotBlank();
    assertThat(RyowDriver.VERSION).isEqualTo(expected);
    String[] parts = expected.split("[.-]");
    assertThat(driver.getMajorVersion()).isEqualTo(Integer.parseInt(parts[0]));
    assertThat(driver.getMinorVersion()).isEqualTo(Integer.parseInt(parts[1]));
  }

  @Test
  void versionParsing() {
    assertThat(DriverVersion.part("0.1.0-SNAPSHOT", 0)).isZero();
    assertThat(DriverVersion.part("0.1.0-SNAPSHOT", 1)).isEqualTo(1);
    assertThat(DriverVersion.part("12.34", 1)).isEqualTo(34);
    assertThat(DriverVersion.part("7", 1)).isZero();
    assertThat(DriverVersion.part("2.5rc1", 1)).isEqualTo(5);
  }

  @Test
  void complianceLoggerAndUrls() {
    assertThat(driver.jdbcCompliant()).isFalse();
    assertThatThrownBy(driver::getParentLogger).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThat(driver.acceptsURL("jdbc:ryow:mysql://p,r/db")).isTrue();
    assertThat(driver.acceptsURL("JDBC:RYOW:mysql://p,r/db")).isTrue();
    assertThat(driver.acceptsURL("jdbc:mysql://p/db")).isFalse();
    assertThat(driver.acceptsURL(null)).isFalse();
  }
}
