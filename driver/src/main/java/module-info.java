/**
 * ryow-jdbc: a {@code jdbc:ryow:} driver that reads from MySQL replicas without reading older data than
 * its own writes.
 *
 * <p>Exported: the public API ({@code dev.ryow.jdbc}), the servlet filter ({@code web}), message tokens
 * ({@code messaging}), the Micrometer binder ({@code micrometer}), and the two value packages the API's signatures use ({@code gtid}:
 * {@code GtidSet}; {@code metrics}: {@code MetricsSnapshot}). The property table ({@code config}) is
 * exported to the Spring Boot starter only. Everything else (routing, sessions, server adapters, the
 * JDBC wrappers, the classifier) is internal.
 *
 * <p>Connector/J ships no module descriptor and no {@code Automatic-Module-Name}: on the module path its
 * name is derived from the jar's file name, {@code mysql.connector.j} for Maven's
 * {@code mysql-connector-j-<version>.jar}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module dev.ryow.jdbc {
  requires transitive java.sql;
  requires transitive java.management;
  requires mysql.connector.j;
  requires org.slf4j;

  requires static transitive org.jspecify;
  requires static transitive jakarta.servlet;
  requires static transitive java.net.http;
  requires static transitive micrometer.core;

  exports dev.ryow.jdbc;
  exports dev.ryow.jdbc.gtid;
  exports dev.ryow.jdbc.metrics;
  exports dev.ryow.jdbc.web;
  exports dev.ryow.jdbc.messaging;
  exports dev.ryow.jdbc.micrometer;
  exports dev.ryow.jdbc.config to dev.ryow.spring.boot;

  provides java.sql.Driver with dev.ryow.jdbc.RyowDriver;
}
