/**
 * Statement intent classification: decides from the SQL text alone whether a statement may run on a
 * replica, must run on the primary, or changes session or transaction state that the router has to
 * track. The entry point is {@link dev.ryow.jdbc.sql.SqlClassifier#classify(String)}; the answer is a
 * {@link dev.ryow.jdbc.sql.StatementKind}.
 *
 * <p>The classifier is a hand-written single-pass lexer: no regular expressions, no allocation, time
 * linear in the length of the SQL. It is a routing aid, not a security boundary: it errs towards the
 * primary whenever it cannot prove that a statement is a plain read.
 */
@org.jspecify.annotations.NullMarked
package dev.ryow.jdbc.sql;
