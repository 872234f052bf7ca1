package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the driver switches Connector/J's parse cache on for its own connections, and with what. */
class ParseCacheTest {

  /** The application's Connector/J properties ({@code key=value;...}), and what the physical connection gets. */
  @ParameterizedTest(name = "[{0}] -> cachePrepStmts={1}, size={2}, limit={3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // nothing said: switched on, with room for ORM statements and the pipelined wait
        "                                   | true  | 64  | 4096",
        "user=app                           | true  | 64  | 4096",
        // the application decided: left alone, either way
        "cachePrepStmts=false               | false | -   | -",
        "cachePrepStmts=true                | true  | -   | -",
        "CACHEPREPSTMTS=false               | -     | -   | -",
        "cachePrepStmts=true;prepStmtCacheSize=250 | true | 250 | -",
        // server-side prepared statements: the property would keep statements open on the server
        "useServerPrepStmts=true            | -     | -   | -",
        "useServerPrepStmts=YES             | -     | -   | -",
        "useServerPrepStmts=false           | true  | 64  | 4096",
        // a size or limit of the application's is kept
        "prepStmtCacheSize=10               | true  | 10  | 4096",
        "prepStmtCacheSqlLimit=256          | true  | 64  | 256",
      })
  void decides(String given, String cache, String size, String limit) {
    Properties props = parse(given);
    Properties before = (Properties) props.clone();

    Properties opened = ParseCache.on(props);

    assertThat(opened.getProperty("cachePrepStmts")).isEqualTo(cache);
    assertThat(opened.getProperty("prepStmtCacheSize")).isEqualTo(size);
    assertThat(opened.getProperty("prepStmtCacheSqlLimit")).isEqualTo(limit);
    assertThat(props).as("the caller's properties are not changed").isEqualTo(before);
    before.forEach((k, v) -> assertThat(opened.get(k)).as("%s is kept", k).isEqualTo(v));
  }

  private static Properties parse(String given) {
    Properties props = new Properties();
    if (given == null || given.isBlank()) {
      return props;
    }
    for (String pair : given.trim().split(";")) {
      String[] kv = pair.split("=", 2);
      props.setProperty(kv[0].trim(), kv[1].trim());
    }
    return props;
  }
}
