package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

/**
 * {@code @ReadYourWrites}, {@code @FreshRead} and {@code @AllowStale} open the matching
 * {@link ConsistencyScope} around the method, closed after it (returned or thrown), the method's own over
 * its class's, ahead of {@code @Transactional}; two on one element fail the start; the switch turns them off.
 * The servers are not involved: what the scope does to reads is tested against them in
 * PerCallFreshnessIT (ryow-spring-boot-starter-tests).
 */
class RyowFreshnessAutoConfigurationTest {
  /** What a method saw of the scope bound to its thread. */
  record Seen(@Nullable ConsistencyMode mode, boolean modeGiven, long maxLagMillis) {
    static Seen now() {
      ConsistencyScope s = ConsistencyScope.current();
      return s == null ? new Seen(null, false, 0) : new Seen(s.mode(), s.modeGiven(), s.maxLagMillis());
    }
  }

  static class Reads {
    @ReadYourWrites
    public Seen readYourWrites() {
      return Seen.now();
    }

    @FreshRead
    public Seen fresh() {
      return Seen.now();
    }

    @AllowStale(maxLagMillis = 250)
    public Seen stale() {
      return Seen.now();
    }

    public Seen plain() {
      return Seen.now();
    }

    @FreshRead
    public Seen freshThenThrow() {
      throw new IllegalStateException("thrown inside " + ConsistencyScope.current());
    }
  }

  @AllowStale(maxLagMillis = 5_000)
  static class Dashboard {
    public Seen page() {
      return Seen.now();
    }

    @FreshRead
    public Seen balance() {
      return Seen.now();
    }
  }

  static class Conflicting {
    @FreshRead
    @AllowStale(maxLagMillis = 1)
    public void both() {}
  }

  /** Records the scope at each transaction boundary. */
  static final class RecordingTransactions extends AbstractPlatformTransactionManager {
    private static final long serialVersionUID = 1L;
    final transient List<Seen> atBoundaries = new ArrayList<>();

    @Override
    protected Object doGetTransaction() {
      return new Object();
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {
      atBoundaries.add(Seen.now());
    }

    @Override
    protected void doCommit(DefaultTransactionStatus status) {
      atBoundaries.add(Seen.now());
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
      atBoundaries.add(Seen.now());
    }
  }

  static class TransactionalReads {
    @FreshRead
    @Transactional(readOnly = true)
    public Seen freshInTransaction() {
      return Seen.now();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Beans {
    @Bean
    Reads reads() {
      return new Reads();
    }

    @Bean
    Dashboard dashboard() {
      return new Dashboard();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableTransactionManagement
  static class TransactionBeans {
    @Bean
    RecordingTransactions transactionManager() {
      return new RecordingTransactions();
    }

    @Bean
    TransactionalReads transactionalReads() {
      return new TransactionalReads();
    }
  }

  private static ApplicationContextRunner runner() {
    return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RyowFreshnessAutoConfiguration.class));
  }

  @Test
  void eachAnnotationOpensItsScopeForTheCallOnly() {
    runner().withUserConfiguration(Beans.class).run(context -> {
      Reads reads = context.getBean(Reads.class);
      assertThat(reads.fresh()).isEqualTo(new Seen(ConsistencyMode.LATEST, true, -1));
      assertThat(reads.stale()).isEqualTo(new Seen(ConsistencyMode.NONE, true, 250));
      assertThat(reads.readYourWrites()).as("the default, explicit: adds to the configured mode")
          .isEqualTo(new Seen(ConsistencyMode.SCOPE, false, -1));
      assertThat(reads.plain()).as("not annotated").isEqualTo(new Seen(null, false, 0));
      assertThatThrownBy(reads::freshThenThrow).hasMessageContaining("LATEST");
      assertThat(ConsistencyScope.current()).as("closed after each call, also after a throw").isNull();
    });
  }

  @Test
  void theMethodsAnnotationWinsOverItsClasss() {
    runner().withUserConfiguration(Beans.class).run(context -> {
      Dashboard dashboard = context.getBean(Dashboard.class);
      assertThat(dashboard.page()).isEqualTo(new Seen(ConsistencyMode.NONE, true, 5_000));
      assertThat(dashboard.balance()).isEqualTo(new Seen(ConsistencyMode.LATEST, true, -1));
    });
  }

  @Test
  void theScopeEnclosesTheTransactionSoItsCommitCounts() {
    runner().withUserConfiguration(TransactionBeans.class).run(context -> {
      assertThat(context.getBean(TransactionalReads.class).freshInTransaction().mode()).isEqualTo(ConsistencyMode.LATEST);
      assertThat(((RecordingTransactions) context.getBean(PlatformTransactionManager.class)).atBoundaries)
          .as("begin and commit ran inside the scope")
          .containsExactly(new Seen(ConsistencyMode.LATEST, true, -1), new Seen(ConsistencyMode.LATEST, true, -1));
    });
  }

  @Test
  void twoAnnotationsOnOneMethodFailTheStartNamingIt() {
    runner().withBean(Conflicting.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("More than one of @ReadYourWrites, @FreshRead and @AllowStale")
          .hasMessageContaining("both()");
    });
  }

  @Test
  void theSwitchTurnsThemOff() {
    runner().withUserConfiguration(Beans.class).withPropertyValues("ryow.annotations.enabled=false")
        .run(context -> {
          assertThat(context).doesNotHaveBean(RyowFreshnessAutoConfiguration.RyowFreshnessAdvisor.class);
          assertThat(context.getBean(Reads.class).fresh()).isEqualTo(new Seen(null, false, 0));
        });
  }
}
