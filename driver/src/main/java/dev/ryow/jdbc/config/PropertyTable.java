package dev.ryow.jdbc.config;

/** Renders the {@code ryow.*} property reference as the Markdown table of {@code docs/configuration.md}. */
public final class PropertyTable {
  private PropertyTable() {}

  /** The table, one row per property of {@link RyowProperties#ALL}, in that order. */
  public static String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("| Property | Default | Accepted | Description |\n");
    out.append("|---|---|---|---|\n");
    for (RyowProperty<?> p : RyowProperties.ALL) {
      String defaultCell = p.defaultText().isEmpty() ? "*(empty)*" : "`" + p.defaultText() + "`";
      out.append("| `").append(p.name()).append("` | ").append(defaultCell).append(" | ")
          .append(p.accepted()).append(" | ").append(p.description().replace("|", "\\|")).append(" |\n");
    }
    return out.toString();
  }

  /** Prints the table, for pasting into {@code docs/configuration.md}. */
  public static void main(String[] args) {
    System.out.print(markdown());
  }
}
