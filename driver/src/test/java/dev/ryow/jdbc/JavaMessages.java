package dev.ryow.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The message texts in Java sources, read with a small lexer (no compiler): every exception constructed
 * with a message ({@code new …Exception(…)}), every WARN/ERROR log call, and every string concatenation.
 *
 * <p>A message is reduced to a <em>template</em>: its string literals joined, each non-literal operand of
 * the {@code +} chain (and each SLF4J {@code {}}) replaced by {@link #HOLE}. String constants
 * ({@code static final String X = "…"}) and property names ({@code RyowProperties.X.name()}) are resolved
 * to their text; anything else (a method call, a variable, a ternary) is a hole.
 */
final class JavaMessages {
  /** Stands for the variable parts of a message, in templates and in the docs. */
  static final String HOLE = "…";

  private static final Pattern STRING_CONSTANT =
      Pattern.compile("static\\s+final\\s+String\\s+(\\w+)\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*;");
  private static final Pattern PROPERTY =
      Pattern.compile("(\\w+)\\s*=\\s*new\\s+RyowProperty<>\\(\\s*\"([^\"]+)\"");
  private static final Pattern SQL_STATE = Pattern.compile("[0-9A-Z]{5}");
  private static final Set<String> BOUNDARY_WORDS = Set.of("return", "throw", "case", "default", "else", "yield",
      "assert", "instanceof", "if", "while", "for", "do", "try", "catch", "finally", "switch");
  private static final Set<String> LOGGERS = Set.of("LOG", "log", "LOGGER", "logger");
  private static final Set<String> LOUD_LEVELS = Set.of("warn", "error");
  private static final Set<String> LEVELS = Set.of("error", "warn", "info", "debug", "trace");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern LOGGER_CLASS = Pattern.compile("getLogger\\(\\s*(\\w+)\\.class\\s*\\)");

  /** Where a message is produced and what it is. */
  record Message(String where, String kind, String template) {
    /** The literal parts of the template, stripped, that hold at least three letters. */
    List<String> fragments() {
      List<String> out = new ArrayList<>();
      for (String f : template.split(HOLE, -1)) {
        String s = f.strip();
        if (s.chars().filter(Character::isLetter).count() >= 3) {
          out.add(s);
        }
      }
      return out;
    }

    /** The longest literal part: what the docs must quote for this message to count as listed. */
    String longestFragment() {
      return fragments().stream().max(Comparator.comparingInt(String::length)).orElse("");
    }

    @Override
    public String toString() {
      return where + " " + kind + ": " + template;
    }
  }

  /**
   * One log call: where, the logger's name (the class passed to {@code getLogger}, taken to be in the
   * file's package), the level, and the message template.
   */
  record LogLine(String where, String logger, String level, String template) {
    @Override
    public String toString() {
      return where + " " + level.toUpperCase(java.util.Locale.ROOT) + " " + logger + ": " + template;
    }
  }

  private final List<Message> userMessages = new ArrayList<>();
  private final List<LogLine> logLines = new ArrayList<>();
  private final Set<String> templates = new LinkedHashSet<>();
  private final Map<String, String> constants = new HashMap<>();
  private final Set<String> ambiguousConstants = new HashSet<>();
  private final Map<String, String> properties = new HashMap<>();

  private JavaMessages() {}

  /** Reads every {@code .java} file under the {@code roots}. */
  static JavaMessages scan(Path... roots) {
    Map<String, String> sources = new TreeMap<>();
    for (Path root : roots) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
          sources.put(root.relativize(f).toString(), Files.readString(f));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return parse(sources);
  }

  /** Reads the given sources (file name to text). */
  static JavaMessages parse(Map<String, String> sources) {
    JavaMessages m = new JavaMessages();
    for (String text : sources.values()) {
      m.collectConstants(text);
    }
    for (Map.Entry<String, String> e : sources.entrySet()) {
      m.collectMessages(e.getKey(), loggerName(e.getValue()), Lexer.tokens(e.getValue()));
    }
    return m;
  }

  /** Exception messages and WARN/ERROR log messages that hold literal text (pass-throughs left out). */
  List<Message> userMessages() {
    return userMessages;
  }

  /** Every {@code LOG.<level>(…)} call whose message holds literal text, at every level. */
  List<LogLine> logLines() {
    return logLines;
  }

  /**
   * Whether {@code quote} ({@link #HOLE} for variable parts) is {@code template}: its literal parts appear
   * in order in the template.
   */
  static boolean quotes(String quote, String template) {
    int at = 0;
    boolean any = false;
    for (String p : quote.split(HOLE, -1)) {
      if (p.isBlank()) {
        continue;
      }
      int i = template.indexOf(p.strip(), at);
      if (i < 0) {
        return false;
      }
      at = i + p.strip().length();
      any = true;
    }
    return any;
  }

  private static String loggerName(String source) {
    Matcher pkg = PACKAGE.matcher(source);
    Matcher cls = LOGGER_CLASS.matcher(source);
    if (!cls.find()) {
      return "";
    }
    return (pkg.find() ? pkg.group(1) + "." : "") + cls.group(1);
  }

  /** Every template in the sources: user messages and every string concatenation or literal. */
  Set<String> templates() {
    return templates;
  }

  /**
   * Whether {@code quote} (a text quoted in the docs, with {@link #HOLE} for variable parts) is produced
   * by the code: its literal parts appear, in order, in one template.
   */
  boolean produces(String quote) {
    List<String> parts = new ArrayList<>();
    for (String p : quote.split(HOLE, -1)) {
      if (!p.isBlank()) {
        parts.add(p.strip());
      }
    }
    if (parts.isEmpty()) {
      return false;
    }
    for (String t : templates) {
      int at = 0;
      boolean all = true;
      for (String p : parts) {
        int i = t.indexOf(p, at);
        if (i < 0) {
          all = false;
          break;
        }
        at = i + p.length();
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private void collectConstants(String text) {
    Matcher c = STRING_CONSTANT.matcher(text);
    while (c.find()) {
      String value = c.group(2).translateEscapes();
      String old = constants.putIfAbsent(c.group(1), value);
      if (old != null && !old.equals(value)) {
        ambiguousConstants.add(c.group(1));
      }
    }
    Matcher p = PROPERTY.matcher(text);
    while (p.find()) {
      properties.put(p.group(1), p.group(2));
    }
  }

  private void collectMessages(String file, String logger, List<Token> t) {
    for (int i = 0; i < t.size(); i++) {
      Token tok = t.get(i);
      if (tok.isLiteral()) {
        templates.add(tok.text().replace("{}", HOLE));
        int from = expand(t, i, -1);
        int to = expand(t, i, +1);
        add(templates, template(t, from, to));
      } else if (tok.is("new") && i + 2 < t.size() && t.get(i + 1).kind() == Kind.WORD
          && t.get(i + 1).text().endsWith("Exception") && t.get(i + 2).is("(")) {
        String message = exceptionMessage(t, i + 2);
        if (message != null) {
          userMessages.add(new Message(file + ":" + tok.line(), t.get(i + 1).text(), message));
        }
      } else if (LOGGERS.contains(tok.text()) && i + 3 < t.size() && t.get(i + 1).is(".")
          && LEVELS.contains(t.get(i + 2).text()) && t.get(i + 3).is("(")) {
        List<int[]> args = arguments(t, i + 3);
        if (!args.isEmpty()) {
          String message = template(t, args.get(0)[0], args.get(0)[1]);
          String level = t.get(i + 2).text();
          if (message != null) {
            logLines.add(new LogLine(file + ":" + tok.line(), logger, level, message));
            if (LOUD_LEVELS.contains(level)) {
              userMessages.add(new Message(file + ":" + tok.line(), "log." + level, message));
            }
          }
        }
      }
    }
  }

  /** The first argument holding literal text that is not a SQLState; null for a pass-through message. */
  private String exceptionMessage(List<Token> t, int open) {
    for (int[] arg : arguments(t, open)) {
      String s = template(t, arg[0], arg[1]);
      if (s != null && !SQL_STATE.matcher(s).matches()) {
        Message m = new Message("", "", s);
        return m.fragments().isEmpty() ? null : s;
      }
    }
    return null;
  }

  private static void add(Set<String> to, String template) {
    if (template != null) {
      to.add(template);
    }
  }

  /** Token ranges [from, to) of the arguments of the call whose '(' is at {@code open}. */
  private static List<int[]> arguments(List<Token> t, int open) {
    List<int[]> args = new ArrayList<>();
    int depth = 0;
    int start = open + 1;
    for (int i = open + 1; i < t.size(); i++) {
      Token tok = t.get(i);
      if (tok.is("(") || tok.is("[") || tok.is("{")) {
        depth++;
      } else if (tok.is(")") || tok.is("]") || tok.is("}")) {
        if (depth == 0) {
          if (i > start) {
            args.add(new int[] {start, i});
          }
          return args;
        }
        depth--;
      } else if (depth == 0 && tok.is(",")) {
        args.add(new int[] {start, i});
        start = i + 1;
      }
    }
    return args;
  }

  /**
   * From the literal at {@code i}, walks in {@code direction} to the edge of the expression it is part
   * of: a bracket it sits in, or a token that cannot continue a {@code +} chain. Returns the range's
   * first index (walking left) or its end, exclusive (walking right).
   */
  private static int expand(List<Token> t, int i, int direction) {
    int depth = 0;
    int j = i + direction;
    for (; j >= 0 && j < t.size(); j += direction) {
      Token tok = t.get(j);
      boolean opens = direction < 0 ? tok.is(")") || tok.is("]") : tok.is("(") || tok.is("[");
      boolean closes = direction < 0 ? tok.is("(") || tok.is("[") : tok.is(")") || tok.is("]");
      if (opens) {
        depth++;
      } else if (closes) {
        if (depth == 0) {
          break;
        }
        depth--;
      } else if (tok.is(";") || tok.is("{") || tok.is("}")) {
        break;
      } else if (depth == 0 && !continuesChain(tok)) {
        break;
      }
    }
    return direction < 0 ? j + 1 : j;
  }

  private static boolean continuesChain(Token tok) {
    return tok.isLiteral() || tok.is("+") || tok.is(".")
        || tok.kind() == Kind.WORD && !BOUNDARY_WORDS.contains(tok.text());
  }

  /** The template of the expression in [from, to): null if it holds no literal text. */
  private String template(List<Token> t, int from, int to) {
    StringBuilder sb = new StringBuilder();
    boolean literal = false;
    int depth = 0;
    int start = from;
    for (int i = from; i <= to; i++) {
      if (i == to || depth == 0 && t.get(i).is("+")) {
        String text = operand(t.subList(start, i));
        if (text == null) {
          if (!sb.toString().endsWith(HOLE)) {
            sb.append(HOLE);
          }
        } else {
          sb.append(text);
          literal |= !text.isEmpty();
        }
        start = i + 1;
      } else if (t.get(i).is("(") || t.get(i).is("[")) {
        depth++;
      } else if (t.get(i).is(")") || t.get(i).is("]")) {
        depth--;
      }
    }
    return literal ? sb.toString().replace("{}", HOLE) : null;
  }

  /** The text of one operand of a {@code +} chain, or null when it is not known from the sources. */
  private String operand(List<Token> o) {
    if (o.size() == 1 && o.get(0).isLiteral()) {
      return o.get(0).text();
    }
    Token last = o.isEmpty() ? null : o.get(o.size() - 1);
    if (last != null && last.kind() == Kind.WORD && (o.size() == 1 || o.size() == 3 && o.get(1).is("."))
        && constants.containsKey(last.text()) && !ambiguousConstants.contains(last.text())) {
      return constants.get(last.text());
    }
    // RyowProperties.X.name() or X.name()
    if (o.size() >= 4 && o.get(o.size() - 1).is(")") && o.get(o.size() - 2).is("(")
        && o.get(o.size() - 3).is("name") && o.get(o.size() - 4).is(".") && o.size() >= 5) {
      String constant = o.get(o.size() - 5).text();
      if (properties.containsKey(constant)) {
        return properties.get(constant);
      }
    }
    return null;
  }

  enum Kind { WORD, STRING, CHAR, OP }

  record Token(Kind kind, String text, int line) {
    boolean is(String s) {
      return kind != Kind.STRING && kind != Kind.CHAR && text.equals(s);
    }

    boolean isLiteral() {
      return kind == Kind.STRING || kind == Kind.CHAR;
    }
  }

  /** Java tokens without comments: words, string and char literals (unescaped), operators. */
  static final class Lexer {
    private Lexer() {}

    static List<Token> tokens(String s) {
      List<Token> out = new ArrayList<>();
      int line = 1;
      int i = 0;
      int n = s.length();
      while (i < n) {
        char c = s.charAt(i);
        if (c == '\n') {
          line++;
          i++;
        } else if (Character.isWhitespace(c)) {
          i++;
        } else if (s.startsWith("//", i)) {
          while (i < n && s.charAt(i) != '\n') {
            i++;
          }
        } else if (s.startsWith("/*", i)) {
          int end = s.indexOf("*/", i + 2);
          end = end < 0 ? n : end + 2;
          line += count(s, i, end);
          i = end;
        } else if (s.startsWith("\"\"\"", i)) {
          int end = s.indexOf("\"\"\"", i + 3);
          end = end < 0 ? n : end;
          String body = s.substring(Math.min(s.indexOf('\n', i) + 1, end), end);
          out.add(new Token(Kind.STRING, body.stripIndent().translateEscapes(), line));
          line += count(s, i, end);
          i = Math.min(n, end + 3);
        } else if (c == '"' || c == '\'') {
          int j = i + 1;
          while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') {
            j += s.charAt(j) == '\\' ? 2 : 1;
          }
          String body = s.substring(i + 1, Math.min(j, n));
          out.add(new Token(c == '"' ? Kind.STRING : Kind.CHAR, body.translateEscapes(), line));
          i = j + 1;
        } else if (Character.isJavaIdentifierPart(c)) {
          int j = i;
          while (j < n && Character.isJavaIdentifierPart(s.charAt(j))) {
            j++;
          }
          out.add(new Token(Kind.WORD, s.substring(i, j), line));
          i = j;
        } else {
          String op = s.startsWith("++", i) || s.startsWith("+=", i) || s.startsWith("->", i) ? s.substring(i, i + 2)
              : String.valueOf(c);
          out.add(new Token(Kind.OP, op, line));
          i += op.length();
        }
      }
      return out;
    }

    private static int count(String s, int from, int to) {
      int lines = 0;
      for (int i = from; i < to; i++) {
        if (s.charAt(i) == '\n') {
          lines++;
        }
      }
      return lines;
    }
  }
}
