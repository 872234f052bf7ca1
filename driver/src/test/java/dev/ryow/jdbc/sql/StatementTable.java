package dev.ryow.jdbc.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The statements in {@code statements.tsv} with their expected kinds. */
final class StatementTable {

  /** One line of the table. */
  record Case(int line, StatementKind expected, String sql) {
    @Override
    public String toString() {
      return "line " + line + ": " + expected + " <- " + sql.replace("\n", "⏎").replace("\t", "⇥");
    }
  }

  private static final List<Case> CASES = load();

  private StatementTable() {}

  /** All cases, in file order. */
  static List<Case> cases() {
    return CASES;
  }

  private static List<Case> load() {
    List<Case> out = new ArrayList<>();
    try (InputStream in = Objects.requireNonNull(StatementTable.class.getResourceAsStream("statements.tsv"), "statements.tsv");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = r.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int tab = line.indexOf('\t');
        if (tab < 0) {
          throw new IllegalStateException("statements.tsv:" + number + ": no tab in: " + line);
        }
        StatementKind kind = StatementKind.valueOf(line.substring(0, tab));
        String sql = line.substring(tab + 1).replace('⏎', '\n').replace('⇥', '\t');
        out.add(new Case(number, kind, sql));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(out);
  }
}
