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
    assertThat(config.get(RyowProperties.WAIT_TIMEOUT_MILLIS)).as("the properties win, as with Connector/J")
        .isEqualTo(500);
    assertThat(config.get(RyowProperties.GTID_CAPTURE)).isEqualTo(GtidCaptureMode.QUERY);
    assertThat(config.get(RyowProperties.FALLBACK)).isEqualTo(FallbackMode.ERROR);
    assertThat(config.connectorProperties()).containsEntry("user", "fromInfo");
  }

  /** As Connector/J: {@code getConnection(url, user, password)} logs in as that user, whatever the URL says. */
  @Test
  void theCallersCredentialsWinOverTheUrls() throws Exception {
    Properties info = new Properties();
    info.setProperty("user", "dummy");
    info.setProperty("password", "secret");
    RyowConfig config = RyowConfig.from(BASE + "?user=ryow&password=ryow", info);
    assertThat(config.connectorProperties()).containsEntry("user", "dummy").containsEntry("password", "secret");
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
        "jdbc:ryow:mysql://db1,db2/shop?novalue | Malformed URL parameter 1",
        "jdbc:ryow:mysql://db1,db2/shop?a=1&=2 | Malformed URL parameter 2",
        "jdbc:ryow:mysql://db1,db2/shop?a=1&b=2&a=2 | URL parameters 1 and 3",
        "jdbc:ryow:mysql://db1,db2/shop?x=%zz | percent-encoding in the URL's parameter 1 (its value)",
        "jdbc:ryow:mysql://db1,db2/a/b | database part of the URL: it contains '/'",
        "jdbc:ryow:mysql://db1,db2/shop&password=x | put the parameters after a '?'",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.monotonicReads=yes | expected true or false but it is neither",
        "jdbc:ryow:mysql://db1,db2/shop?ryow.monotonicReads=1 | ryow.monotonicReads",
      })
  void badUrlsAreClearErrors(String url, String messageFragment) {
    assertThatThrownBy(() -> parse(url))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(messageFragment)
        .satisfies(e -> assertThat(((ConfigException) e).getSQLState()).isEqualTo("08001"));
  }

  @Test
  void monotonicReadsAreOnByDefaultAndTakeTrueOrFalse() throws Exception {
    assertThat(parse(BASE).get(RyowProperties.MONOTONIC_READS)).isTrue();
    assertThat(parse(BASE + "?ryow.monotonicReads=FALSE").get(RyowProperties.MONOTONIC_READS)).isFalse();
  }

  @Test
  void unknownKeyMessageListsTheValidOnes() {
    assertThatThrownBy(() -> parse(BASE + "?ryow.nope=1"))
        .hasMessageContaining("ryow.gtidCapture")
        .hasMessageContaining("ryow.waitTimeout")
        .hasMessageContaining("ryow.fallback");
  }

  /** A password with an unencoded '&' (the tail then looks like a parameter of its own): never echoed. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "?user=app&password=pa&ss-word-tail | ss-word-tail",
        "?user=app&password=pa&ss-word-tail&user=x | ss-word-tail",
        "?password=pa&ss=word&ss=word | ss=word",
        "?password=pa&ss=%zzword | ss=%zzword",
        "?password=pa&ryow.waitTimeout=secret9 | secret9",
        "?password=pa&ryow.fallback=secret9 | secret9",
        "?password=pa&ryow.clusterName=" + "%01secret9 | secret9",
        "?ryow.tokenKey=short-kq7zx9w | kq7zx9w",
      })
  void noErrorQuotesAnyPartOfAParameterValue(String query, String secretPart) {
    assertThatThrownBy(() -> parse(BASE + query))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> {
          for (int i = 0; i + 4 <= secretPart.length(); i++) {
            String piece = secretPart.substring(i, i + 4);
            assertThat(e.getMessage()).as("message quotes '%s'", piece).doesNotContain(piece);
          }
          assertThat(e.getCause() == null ? "" : String.valueOf(e.getCause())).doesNotContain(secretPart);
        });
  }

  @Test
  void invalidValuesAreDescribedNotQuoted() {
    assertThatThrownBy(() -> parse(BASE + "?ryow.waitTimeout=abc"))
        .hasMessage("Invalid value for ryow.waitTimeout: expected integer 1..60000 but it is not a whole number");
    assertThatThrownBy(() -> parse(BASE + "?ryow.waitTimeout=60001"))
        .hasMessage("Invalid value for ryow.waitTimeout: expected integer 1..60000 but it is above that range");
    assertThatThrownBy(() -> parse(BASE + "?ryow.fallback=maybe"))
        .hasMessage("Invalid value for ryow.fallback: expected one of [primary, error, stale] but it is none of them");
  }

  @Test
  void nonStringPropertyValuesAreHonouredOrRefused() throws Exception {
    Properties info = new Properties();
    info.put("ryow.waitTimeout", 250);
    info.put("ryow.failoverTimeout", 1500L);
    info.put("ryow.clusterName", new StringBuilder("orders"));
    info.put("ryow.fallback", FallbackMode.ERROR);
    info.put("connectTimeout", 2500);
    info.put("useSSL", Boolean.FALSE);
    info.put("password", "TopSecret1".toCharArray());
    RyowConfig config = RyowConfig.from(BASE, info);
    assertThat(config.get(RyowProperties.WAIT_TIMEOUT_MILLIS)).isEqualTo(250);
    assertThat(config.get(RyowProperties.FAILOVER_TIMEOUT_MILLIS)).isEqualTo(1500);
    assertThat(config.clusterName()).isEqualTo("orders");
    assertThat(config.get(RyowProperties.FALLBACK)).isEqualTo(FallbackMode.ERROR);
    assertThat(config.connectorProperties())
        .containsEntry("connectTimeout", "2500")
        .containsEntry("useSSL", "false")
        .containsEntry("password", "TopSecret1");

    Properties zero = new Properties();
    zero.put("ryow.waitTimeout", 0);
    assertThatThrownBy(() -> RyowConfig.from(BASE, zero))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Invalid value for ryow.waitTimeout");

    Properties list = new Properties();
    list.put("ryow.waitTimeout", java.util.List.of("TopSecret1"));
    assertThatThrownBy(() -> RyowConfig.from(BASE, list))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'ryow.waitTimeout'")
        .hasMessageContaining("java.util.")
        .hasMessageNotContaining("TopSecret1");

    Properties badKey = new Properties();
    badKey.put(42, "x");
    assertThatThrownBy(() -> RyowConfig.from(BASE, badKey))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("key of type java.lang.Integer");
  }

  @Test
  void propertyDefaultsCountAndNonStringDefaultsAreRefused() throws Exception {
    Properties defaults = new Properties();
    defaults.setProperty("ryow.waitTimeout", "300");
    Properties info = new Properties(defaults);
    assertThat(RyowConfig.from(BASE, info).get(RyowProperties.WAIT_TIMEOUT_MILLIS)).isEqualTo(300);
    info.put("ryow.waitTimeout", 400);
    assertThat(RyowConfig.from(BASE, info).get(RyowProperties.WAIT_TIMEOUT_MILLIS)).as("own entry wins").isEqualTo(400);

    Properties objectDefaults = new Properties();
    objectDefaults.put("ryow.waitTimeout", 500);
    assertThatThrownBy(() -> RyowConfig.from(BASE, new Properties(objectDefaults)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'ryow.waitTimeout'")
        .hasMessageContaining("defaults");
  }

  @Test
  void toStringHidesWhatFollowsASecretInTheUrl() throws Exception {
    RyowConfig config = parse(BASE + "?user=app&password=pa&ss=word-tail&sslMode=DISABLED");
    assertThat(config.toString()).doesNotContain("word-tail").doesNotContain("DISABLED").contains("user=app");
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
