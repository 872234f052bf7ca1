package dev.ryow.jdbc.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FilterSettingTest {
  @ParameterizedTest
  @CsvSource({
      "300, PT5M", "5m, PT5M", "90s, PT1M30S", "1h, PT1H", "1d, PT24H", "1500ms, PT1.5S", "0, PT0S", "PT5M, PT5M",
      "' 60 ', PT1M"})
  void aMaxAgeIsSecondsANumberWithAUnitOrIso(String text, String expected) {
    assertThat(FilterSetting.COOKIE_MAX_AGE.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @CsvSource({"-1", "5 m", "5w", "abc", "PT-5M", "99999999999", "''"})
  void aBadMaxAgeNamesTheSettingAndTheText(String text) {
    assertThatThrownBy(() -> FilterSetting.COOKIE_MAX_AGE.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cookieMaxAge (ryow.web.cookie.max-age) must be ")
        .hasMessageEndingWith(", not '" + text + "'");
  }

  @ParameterizedTest
  @CsvSource({"ignore, false", "IGNORE, false", "reject, true", "' Reject ', true"})
  void invalidTokenIsIgnoreOrReject(String text, boolean rejected) {
    assertThat(FilterSetting.INVALID_TOKEN_REJECTED.parse(text)).isEqualTo(rejected);
  }

  @Test
  void aBadChoiceSaysWhatIsAccepted() {
    assertThatThrownBy(() -> FilterSetting.COOKIE_SECURE.parse("yes"))
        .hasMessage("cookieSecure (ryow.web.cookie.secure) must be 'false' or 'true', not 'yes'");
    assertThatThrownBy(() -> FilterSetting.HEADER_NAME.parse(" "))
        .hasMessage("headerName (ryow.web.header-name) must be a non-empty text, not ' '");
  }

  @Test
  void aNamedCookieHasTheDefinedDefaults() {
    TokenCookie c = TokenCookie.named("T");
    assertThat(c.path()).isEqualTo(FilterSetting.COOKIE_PATH.defaultValue()).isEqualTo("/");
    assertThat(c.isHttpOnly()).isTrue();
    assertThat(c.isSecure()).isFalse();
    assertThat(c.sameSite()).isEqualTo("Lax");
    assertThat(c.maxAge()).isEqualTo(Duration.ofMinutes(5));
    assertThat(FilterSetting.COOKIE_SAME_SITE.parseOrDefault(null)).isEqualTo("Lax");
    assertThat(TokenCookie.named("T").sameSite(FilterSetting.COOKIE_SAME_SITE.parse("")).sameSite())
        .as("an empty SameSite is none").isNull();
  }

  @Test
  void everySettingHasItsOwnNames() {
    assertThat(FilterSetting.ALL).extracting(FilterSetting::parameter).doesNotHaveDuplicates();
    assertThat(FilterSetting.ALL).extracting(FilterSetting::springName).doesNotHaveDuplicates()
        .allMatch(n -> n.matches("[a-z.-]+"));
  }
}
