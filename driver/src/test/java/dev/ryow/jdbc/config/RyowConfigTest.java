package dev.ryow.jdbc.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RyowConfigTest {
  private static final String BASE = "jdbc:ryow:mysql://db1:3306,db2:3307,[::1]:3308/shop";

  private static RyowConfig parse(String url) throws ConfigException {
    return RyowConfig.from(url, new Properties());
  }

  @Test
  void parsesHostsDatabaseAndDefaults() throws Exception {
    RyowConfig config = parse(BASE + "?user=app&password=s3cret&useSSL=false");
    assertThat(config.primary()).isEqualTo(new HostSpec("db1", 3306));
    assertThat(config.replicas()).containsExactly(new HostSpec("db2", 3307), new HostSpec("::1", 3308));
    assertThat(config.database()).isEqualTo("shop");
    assertThat(config.get(RyowProperties.WAIT_TIMEOUT_MILLIS)).isEqualTo(100);
    assertThat(config.get(RyowProperties.GTID_CAPTURE)).isEqualTo(GtidCaptureMode.OWN_GTID);
    assertThat(config.get(RyowProperties.FALLBACK)).isEqualTo(FallbackMode.PRIMARY);
    assertThat(config.connectorProperties())
        .containsEntry("user", "app")
        .containsEntry("password", "s3cret")
        .containsEntry("useSSL", "false")
        .doesNotContainKey("ryow.waitTimeout");
  }

  @Test
  void defaultPortAndEmptyDatabase() throws Exception {
    RyowConfig config = parse("jdbc:ryow:mysql://p,r/");
    assertThat(config.primary().port()).isEqualTo(3306);
    assertThat(config.database()).isEmpty();
    assertThat(parse("jdbc:ryow:mysql://p,r").database()).isEmpty();
  }

  @Test
  void typedSettingsFromUrlAndProperties() throws Exception {
    Properties info = new Properties();
    info.setProperty("ryow.fallback", "ERROR");
    info.setProperty("ryow.waitTimeout", "500");
    info.setProperty("user", "fromInfo");
    RyowConfig config = RyowConfig.from(BASE + "?ryow.waitTimeout=150&ryow.gtidCapture=query", info);
    assertThat(config.get(RyowProperties.WAIT_TIMEOUT_MILLIS)).as("the URL wins").isEqualTo(150);
    assertThat(config.get(RyowProperties.GTID_CAPTURE)).isEqualTo(GtidCaptureMode.QUERY);
    assertThat(config.get(RyowProperties.FALLBACK)).isEqualTo(FallbackMode.ERROR);
    assertThat(config.connectorProperties()).containsEntry("user", "fromInfo");
  }

  @Test
  void percentEncodedValuesAreDecoded() throws Exception {
    RyowConfig config = parse(BASE + "?password=p%26ss%3Dword");
    assertThat(config.connectorProperties()).containsEntry("password", "p&ss=word");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:ryow:mysql://db1/shop | only the primary",
        "jdbc:ryow:mysql:///shop | names no hosts",
        "jdbc:ryow:mysql://db1,,db2/shop | Empty host",
        "jdbc:ryow:mysql://db1,db2,/shop | Empty host",
        "jdbc:ryow:mysql://db1:0,db2/shop | Port out of range",
        "jdbc:ryow:mysql://db1:99999,db2/shop | Port out of range",
        "jdbc:ryow:mysql://db1:x,db2/shop | Malformed port",
        "jdbc:ryow:mysql://db 1,db2/shop | Malformed host",
        "jdbc:ryow:mysql://[::1,db2/shop | Unclosed",
        "jdbc:ryow:mysql://db1,db1/shop | appears twice",
        "jdbc:ryow:postgresql://db1,db2/shop | Unsupported URL form",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.waitTimeot=5 | Unknown property 'ryow.waitTimeot'",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.waitTimeout=0 | ryow.waitTimeout",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.waitTimeout=abc | ryow.waitTimeout",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.waitTimeout=60001 | ryow.waitTimeout",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.fallback=maybe | one of [primary, error, stale]",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.gtidCapture= | ryow.gtidCapture",
        "jdbc:ryow:mysql://db1,db2/shop?novalue | expected key=value",
        "jdbc:ryow:mysql://db1,db2/shop?a=1&a=2 | given twice",
        "jdbc:ryow:mysql://db1,db2/shop?x=%zz | percent-encoding",
        "jdbc:ryow:mysql://db1,db2/a/b | database",
      })
  void badUrlsAreClearErrors(String url, String messageFragment) {
    assertThatThrownBy(() -> parse(url))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(messageFragment)
        .satisfies(e -> assertThat(((ConfigException) e).getSQLState()).isEqualTo("08001"));
  }

  @Test
  void unknownKeyMessageListsTheValidOnes() {
    assertThatThrownBy(() -> parse(BASE + "?ryow.nope=1"))
        .hasMessageContaining("ryow.gtidCapture")
        .hasMessageContaining("ryow.waitTimeout")
        .hasMessageContaining("ryow.fallback");
  }

  @Test
  void passwordsNeverAppearInToStringOrErrors() throws Exception {
    RyowConfig config = parse(BASE + "?user=app&password=TopSecret1");
    assertThat(config.toString()).doesNotContain("TopSecret1").contains("password=****");
    assertThatThrownBy(() -> parse("jdbc:ryow:oracle://x?password=TopSecret1"))
        .hasMessageNotContaining("TopSecret1");
    assertThatThrownBy(() -> parse(BASE + "?password=TopSecret1&bad"))
        .hasMessageNotContaining("TopSecret1");
  }

  @Test
  void clusterKeyIgnoresCredentialsButNotSettings() throws Exception {
    assertThat(parse(BASE + "?user=a&password=x").clusterKey())
        .isEqualTo(parse(BASE + "?user=b&password=y").clusterKey());
    assertThat(parse(BASE).clusterKey()).isNotEqualTo(parse(BASE + "?ryow.waitTimeout=50").clusterKey());
  }

  @Test
  void everyPropertyHasADocumentedDefaultThatParses() {
    assertThat(RyowProperties.ALL).isNotEmpty();
    for (RyowProperty<?> p : RyowProperties.ALL) {
      assertThat(p.name()).startsWith(RyowProperties.PREFIX);
      assertThat(p.description()).isNotBlank();
      assertThat(p.parse(p.defaultText())).isEqualTo(p.defaultValue());
    }
    assertThat(RyowProperties.ALL.stream().map(RyowProperty::name).distinct().count())
        .isEqualTo(RyowProperties.ALL.size());
    assertThat(RyowProperties.FALLBACK.choices()).isEqualTo(List.of("primary", "error", "stale"));
  }
}
