/**
 * Propagation of consistency tokens through messages: {@link dev.ryow.jdbc.messaging.MessageTokens} names
 * the header and turns the producer's {@link dev.ryow.jdbc.ConsistencyScope} into its value, and the value
 * into the consumer's scope. No broker client is needed: the few lines that read and write a header of
 * Kafka, AMQP or JMS are the application's (docs/consistency.md shows them).
 */
@NullMarked
package dev.ryow.jdbc.messaging;

import org.jspecify.annotations.NullMarked;
