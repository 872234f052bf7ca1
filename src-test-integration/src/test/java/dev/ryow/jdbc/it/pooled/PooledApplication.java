package dev.ryow.jdbc.it.pooled;

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
 * A Spring application as users build it: a HikariCP pool (the URL is the only thing that names the
 * driver), JPA through Hibernate, {@code @Transactional} services. Started per test.
 */
@Configuration
@EnableTransactionManagement
public class PooledApplication {
  /** The URL and pool size, handed in before the context starts. */
  static String url;
  static int poolSize;

  /** Starts the application against {@code url} with a pool of {@code poolSize} connections. */
  public static AnnotationConfigApplicationContext start(String url, int poolSize) {
    PooledApplication.url = url;
    PooledApplication.poolSize = poolSize;
    return new AnnotationConfigApplicationContext(PooledApplication.class);
  }

  @Bean(destroyMethod = "close")
  public HikariDataSource dataSource() {
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-pooled-app");
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(poolSize);
    return new HikariDataSource(config);
  }

  @Bean
  public LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource) {
    LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
    factory.setDataSource(dataSource);
    factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
    factory.setManagedTypes(PersistenceManagedTypes.of(Item.class.getName()));
    factory.getJpaPropertyMap().put("hibernate.hbm2ddl.auto", "none");
    return factory;
  }

  @Bean
  public PlatformTransactionManager transactionManager(EntityManagerFactory emf) {
    return new JpaTransactionManager(emf);
  }

  @Bean
  public ItemService itemService() {
    return new ItemService();
  }
}
