package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class RyowDataSourceTest {
  private static final String SECRET = "Pw-4f7e-NeverShown";

  @Test
  void beanPropertiesAndMaskedToString() throws Exception {
    RyowDataSource ds = new RyowDataSource();
    ds.setUrl("jdbc:ryow:mysql://p:3306,r:3307/shop?password=" + SECRET + "&ryow.waitTimeout=50");
    ds.setUsername("app");
    ds.setPassword(SECRET);
    ds.setConnectionProperties("ryow.fallback=error; sslMode=DISABLED ;trustCertificateKeyStorePassword=" + SECRET);
    assertThat(ds.getUser()).isEqualTo("app");
    assertThat(ds.getProperties())
        .containsEntry("ryow.fallback", "error")
        .containsEntry("sslMode", "DISABLED")
        .containsEntry("trustCertificateKeyStorePassword", SECRET);
    assertThat(ds.toString())
        .doesNotContain(SECRET)
        .contains("user=app", "ryow.fallback=error", "password=****&…")
        .as("what follows a secret in the URL is hidden too (a '&' in the secret would split it)")
        .doesNotContain("ryow.waitTimeout=50");
    ds.setProperty("ryow.waitTimeout", "70");
    assertThat(ds.getProperties()).containsEntry("ryow.waitTimeout", "70");
    Properties replaced = new Properties();
    replaced.setProperty("a", "b");
    ds.setProperties(replaced);
    assertThat(ds.getProperties()).containsOnlyKeys("a");
  }

  @Test
  void badConnectionPropertiesNameThePairButNotTheSecret() {
    RyowDataSource ds = new RyowDataSource();
    assertThatThrownBy(() -> ds.setConnectionProperties("password" + SECRET))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ds.setConnectionProperties("a=b;novalue"))
        .hasMessageContaining("pair 2")
        .hasMessageNotContaining("novalue");
  }

  @Test
  void missingOrForeignUrlIsAClearError() {
    RyowDataSource ds = new RyowDataSource();
    assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class).hasMessageContaining("no url");
    ds.setUrl("jdbc:mysql://u:" + SECRET + "@h/db?password=" + SECRET);
    assertThatThrownBy(ds::getConnection)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("jdbc:ryow:")
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void wrapperAndLogger() throws Exception {
    RyowDataSource ds = new RyowDataSource();
    assertThat(ds.isWrapperFor(DataSource.class)).isTrue();
    assertThat(ds.unwrap(RyowDataSource.class)).isSameAs(ds);
    assertThatThrownBy(() -> ds.unwrap(String.class)).isInstanceOf(SQLException.class);
    assertThatThrownBy(ds::getParentLogger).isInstanceOf(SQLFeatureNotSupportedException.class);
    ds.setLoginTimeout(3);
    assertThat(ds.getLoginTimeout()).isEqualTo(3);
  }
}
