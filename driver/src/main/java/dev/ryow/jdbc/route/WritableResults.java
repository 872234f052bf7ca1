package dev.ryow.jdbc.route;

import dev.ryow.jdbc.sql.StatementKind;

/**
 * "Can this read's results write?" Two JDBC paths write through the result of a query, on the
 * connection that ran it: an updatable result set ({@code ResultSet.CONCUR_UPDATABLE}: Connector/J's
 * {@code updateRow}, {@code insertRow} and {@code deleteRow} send their {@code UPDATE}, {@code INSERT}
 * and {@code DELETE} there), and Connector/J's BLOB locators ({@code emulateLocators=true}: a
 * {@code Blob} from {@code getBlob} runs its {@code setBytes} as an {@code UPDATE} there). Such a
 * query is a {@link StatementKind#PRIMARY_READ}: it runs on the primary, so that its writes do. On a
 * replica they would fail ({@code super_read_only}) or, worse, diverge it from the primary.
 *
 * <p>A scroll-sensitive result set ({@code TYPE_SCROLL_SENSITIVE}) that is read-only does not write
 * (Connector/J refreshes rows only of updatable ones): its query stays a read.
 */
public final class WritableResults {
  private WritableResults() {}

  /**
   * The kind a query {@code classified} as it is runs as, when its results can write
   * ({@code resultsWrite}: an updatable statement, or BLOB locators).
   */
  public static StatementKind kind(StatementKind classified, boolean resultsWrite) {
    return resultsWrite && classified == StatementKind.READ ? StatementKind.PRIMARY_READ : classified;
  }

  /**
   * Whether the results of a statement created with {@code concurrency} can write, on a connection
   * whose BLOBs are locators when {@code blobLocators}.
   */
  public static boolean resultsWrite(int concurrency, boolean blobLocators) {
    return concurrency == java.sql.ResultSet.CONCUR_UPDATABLE || blobLocators;
  }
}
