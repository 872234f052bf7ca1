/**
 * Spring Boot auto-configuration for {@code jdbc:ryow:}: active when {@code spring.datasource.url} is a
 * {@code jdbc:ryow:} URL. It hands the driver's {@code ryow.*} settings from Spring configuration to the
 * DataSource ({@link dev.ryow.spring.boot.RyowAutoConfiguration}), carries read-your-writes across
 * application instances with the consistency filter ({@link dev.ryow.spring.boot.RyowWebAutoConfiguration}),
 * and adds Micrometer meters, an Actuator health indicator and an info contributor. Every part has a
 * switch and backs off when the application defines its own bean.
 */
@NullMarked
package dev.ryow.spring.boot;

import org.jspecify.annotations.NullMarked;
