package dev.ryow.jdbc.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Secrets never reach a message or a {@code toString}. */
class MaskingTest {
  private static final String SECRET = "S3cr3t,/@x-91";

  @Test
  void maskUrlHidesSecretParametersAndUserInfo() {
    assertThat(Masking.maskUrl("jdbc:ryow:mysql://h1,h2/db?user=a&password=" + SECRET + "&x=1"))
        .as("after a secret, nothing: a '&' in it would make its tail look like parameters")
        .isEqualTo("jdbc:ryow:mysql://h1,h2/db?user=a&password=****&…");
    assertThat(Masking.maskUrl("jdbc:mysql://h/db?x=1&password=pa&ss-word-tail"))
        .isEqualTo("jdbc:mysql://h/db?x=1&password=****&…");
    assertThat(Masking.maskUrl("jdbc:mysql://h/db?x=1&novalue&y=2")).isEqualTo("jdbc:mysql://h/db?x=1&****&y=2");
    assertThat(Masking.maskUrl("jdbc:mysql://app:" + SECRET + "@h1:3306/db?sslMode=REQUIRED"))
        .isEqualTo("jdbc:mysql://****@h1:3306/db?sslMode=REQUIRED")
        .doesNotContain(SECRET);
    assertThat(Masking.maskUrl("jdbc:ryow:mysql://h1,h2/db")).isEqualTo("jdbc:ryow:mysql://h1,h2/db");
  }

  @Test
  void credentialsInTheHostPartAreRefusedWithoutEchoingThem() {
    assertThatThrownBy(() -> RyowConfig.from("jdbc:ryow:mysql://app:" + SECRET + "@h1,h2/db", new Properties()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("user:password@host")
        .hasMessageNotContaining(SECRET)
        .hasNoCause();
  }

  @Test
  void malformedEncodingOfAPasswordIsNotQuoted() {
    assertThatThrownBy(() -> RyowConfig.from("jdbc:ryow:mysql://h1,h2/db?password=%zz" + SECRET, new Properties()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("parameter 1 (its value)")
        .hasMessageNotContaining(SECRET)
        .hasNoCause();
  }

  @Test
  void configToStringMasksSecrets() throws Exception {
    Properties info = new Properties();
    info.setProperty("password", SECRET);
    info.setProperty("clientCertificateKeyStorePassword", SECRET);
    RyowConfig config = RyowConfig.from("jdbc:ryow:mysql://h1,h2/db?user=app", info);
    assertThat(config.toString()).doesNotContain(SECRET).contains("password=****", "user=app");
    assertThat(config.clusterKey()).doesNotContain(SECRET);
  }

  @Test
  void clusterNameDefaultsToThePrimaryAndValidates() throws Exception {
    assertThat(RyowConfig.from("jdbc:ryow:mysql://h1:3307,h2/db", new Properties()).clusterName()).isEqualTo("h1:3307");
    assertThat(RyowConfig.from("jdbc:ryow:mysql://h1,h2/db?ryow.clusterName=orders", new Properties()).clusterName())
        .isEqualTo("orders");
    assertThatThrownBy(() -> RyowConfig.from("jdbc:ryow:mysql://h1,h2/db?ryow.clusterName=" + "x".repeat(101), new Properties()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("ryow.clusterName");
  }
}
