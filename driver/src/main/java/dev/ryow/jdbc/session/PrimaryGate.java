package dev.ryow.jdbc.session;

import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.SQLException;

/**
 * The primary physical connection as a statement of the session may use it: replaced first when it
 * broke, when the cluster moved to another primary, or when it was opened before the primary's last
 * outage ({@link PrimaryLink#stale}), as long as the caller's {@link PrimaryLink.Patience} allows; never
 * while the transaction holds it (statements of the transaction ran there). A replacement makes
 * {@link ReadConsistency} check its watermark against the new primary.
 */
final class PrimaryGate {
  private final PrimaryLink link;
  private final Transactions transactions;
  private final ReadConsistency consistency;

  PrimaryGate(PrimaryLink link, Transactions transactions, ReadConsistency consistency) {
    this.link = link;
    this.transactions = transactions;
    this.consistency = consistency;
  }

  /** The current primary connection, replaced first if it is stale and the transaction allows it. */
  PhysicalConnection ensure(PrimaryLink.Patience patience) throws SQLException {
    if (!transactions.state().holdsPrimary()) {
      String why = link.stale();
      if (why != null) {
        replace(why, patience);
      }
    }
    return link.connection();
  }

  /** Replaces the primary connection now ({@code why}: for the log). */
  void replace(String why, PrimaryLink.Patience patience) throws SQLException {
    link.replace(why, transactions.state().pinned(), patience);
    consistency.primaryReplaced();
  }

  /** The primary connection for a statement that runs there now: current, with the application's flags synced. */
  PhysicalConnection forStatement(PrimaryLink.Patience patience) throws SQLException {
    ensure(patience);
    transactions.syncPrimary();
    return link.connection();
  }
}
