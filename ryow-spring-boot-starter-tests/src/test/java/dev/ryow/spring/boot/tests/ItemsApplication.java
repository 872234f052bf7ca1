package dev.ryow.spring.boot.tests;

import java.time.Duration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.scheduler.Schedulers;

/**
 * A small web application as a Spring Boot user writes it, with the starter on its class path and
 * nothing of ryow in its code: {@code spring.datasource.url} is a {@code jdbc:ryow:} URL. Items are
 * created and edited with POSTs and read with GETs whose page shows the value and the {@code @@port}
 * of the server that answered. TwoInstancesIT runs two instances of it, each in its own JVM. For
 * ServiceCallsIT, an instance also calls another one with the application's own {@code RestClient},
 * {@code RestTemplate} or {@code WebClient} bean (the starter adds its interceptor or filter to them; nothing
 * of ryow here either). The {@code WebClient} calls are subscribed on a Reactor scheduler, so the request
 * leaves from another thread than the one whose request scope made the writes.
 */
@SpringBootApplication
public class ItemsApplication {
  /** Printed once the web server listens, so that the test learns the port. */
  static final String PORT_LINE = "ITEMS-APPLICATION-PORT=";

  public static void main(String[] args) {
    SpringApplication.run(ItemsApplication.class, args);
  }

  @Bean
  ApplicationListener<WebServerInitializedEvent> announcePort() {
    return event -> System.out.println(PORT_LINE + event.getWebServer().getPort());
  }

  /** The application's HTTP clients, as a Spring user declares them. */
  @Bean
  RestClient.Builder restClientBuilder() {
    return RestClient.builder();
  }

  @Bean
  RestTemplate restTemplate() {
    return new RestTemplate();
  }

  @Bean
  WebClient.Builder webClientBuilder() {
    return WebClient.builder();
  }

  /** Calls to another instance ({@code peer}, a base URL) with {@code client} = rest-client, rest-template or web-client. */
  @RestController
  static class Calls {
    private final JdbcTemplate jdbc;
    private final RestClient restClient;
    private final RestTemplate restTemplate;
    private final WebClient webClient;

    Calls(JdbcTemplate jdbc, RestClient.Builder restClient, RestTemplate restTemplate, WebClient.Builder webClient) {
      this.jdbc = jdbc;
      this.restClient = restClient.build();
      this.restTemplate = restTemplate;
      this.webClient = webClient.build();
    }

    /** Creates the item here, then answers the peer's page of it. */
    @PostMapping("/calls/write-then-peer-reads/{id}")
    String writeThenPeerReads(@PathVariable("id") int id, @RequestParam("value") int value,
        @RequestParam("peer") String peer, @RequestParam("client") String client) {
      jdbc.update("INSERT INTO starter_items (id, value) VALUES (?, ?)", id, value);
      String url = peer + "/items/" + id;
      return switch (client) {
        case "rest-client" -> restClient.get().uri(url).retrieve().body(String.class);
        case "rest-template" -> restTemplate.getForObject(url, String.class);
        case "web-client" -> webClient.get().uri(url).retrieve().bodyToMono(String.class)
            .subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(30));
        default -> throw new IllegalArgumentException(client);
      };
    }

    /** Has the peer create the item, then answers this instance's page of it. */
    @PostMapping("/calls/peer-writes-then-read/{id}")
    String peerWritesThenRead(@PathVariable("id") int id, @RequestParam("value") int value,
        @RequestParam("peer") String peer, @RequestParam("client") String client) {
      String url = peer + "/items/" + id + "?value=" + value;
      switch (client) {
        case "rest-client" -> restClient.post().uri(url).retrieve().toBodilessEntity();
        case "rest-template" -> restTemplate.postForEntity(url, null, Void.class);
        case "web-client" -> webClient.post().uri(url).retrieve().toBodilessEntity()
            .subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(30));
        default -> throw new IllegalArgumentException(client);
      }
      return jdbc.queryForObject("SELECT MAX(value), @@port FROM starter_items WHERE id = ?",
          (rs, row) -> rs.getObject(1) + "@" + rs.getInt(2), id);
    }
  }

  /** The items: plain JdbcTemplate on the auto-configured pool, autocommit. */
  @RestController
  static class Items {
    private final JdbcTemplate jdbc;

    Items(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @PostMapping("/items/{id}")
    @ResponseStatus(HttpStatus.CREATED)
    void create(@PathVariable("id") int id, @RequestParam("value") int value) {
      jdbc.update("INSERT INTO starter_items (id, value) VALUES (?, ?)", id, value);
    }

    @PostMapping("/items/{id}/value")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void edit(@PathVariable("id") int id, @RequestParam("value") int value) {
      jdbc.update("UPDATE starter_items SET value = ? WHERE id = ?", value, id);
    }

    /** The page: {@code value@port}, {@code null@port} when the server that answered has no such item. */
    @GetMapping("/items/{id}")
    String read(@PathVariable("id") int id) {
      return jdbc.queryForObject("SELECT MAX(value), @@port FROM starter_items WHERE id = ?",
          (rs, row) -> rs.getObject(1) + "@" + rs.getInt(2), id);
    }
  }

  /** What the migrations of MigrationsIT made (their tables exist only in that test). */
  @RestController
  static class Migrated {
    private final JdbcTemplate jdbc;

    Migrated(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    /** {@code plans=N,prices=N,features=N,featurePlans=N@port}: counts and sums of the migrated tables. */
    @GetMapping("/migrated")
    String migrated() {
      return jdbc.queryForObject("SELECT (SELECT COUNT(*) FROM mig_plans), (SELECT SUM(price) FROM mig_plans),"
              + " (SELECT COUNT(*) FROM mig_features), (SELECT SUM(plan_id) FROM mig_features), @@port",
          (rs, row) -> "plans=" + rs.getLong(1) + ",prices=" + rs.getLong(2) + ",features=" + rs.getLong(3)
              + ",featurePlans=" + rs.getLong(4) + "@" + rs.getInt(5));
    }
  }
}
