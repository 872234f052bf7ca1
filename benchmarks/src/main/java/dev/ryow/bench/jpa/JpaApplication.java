package dev.ryow.bench.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;

/**
 * A Spring application as users build it: a HikariCP pool (only the URL names the driver), JPA
 * through Hibernate, {@code @Transactional} services.
 */
@Configuration
@EnableTransactionManagement
public class JpaApplication {
  private static String url;
  private static int poolSize;

  /** Starts the application against {@code jdbcUrl} with a pool of {@code size} connections. */
  public static synchronized AnnotationConfigApplicationContext start(String jdbcUrl, int size) {
    url = jdbcUrl;
    poolSize = size;
    return new AnnotationConfigApplicationContext(JpaApplication.class);
  }

  /** The pool. */
  @Bean(destroyMethod = "close")
  public HikariDataSource dataSource() {
    HikariConfig config = new HikariConfig();
    config.setPoolName("txp-jpa");
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    return new HikariDataSource(config);
  }

  /** JPA over the pool. */
  @Bean
  public LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource) {
    LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
    factory.setDataSource(dataSource);
    factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
    factory.setManagedTypes(PersistenceManagedTypes.of(Item.class.getName()));
    factory.getJpaPropertyMap().put("hibernate.hbm2ddl.auto", "none");
    return factory;
  }

  /** Transactions through JPA. */
  @Bean
  public PlatformTransactionManager transactionManager(EntityManagerFactory emf) {
    return new JpaTransactionManager(emf);
  }

  /** The service. */
  @Bean
  public ItemService itemService() {
    return new ItemService();
  }
}
