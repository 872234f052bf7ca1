package dev.ryow.bench;

import dev.ryow.bench.Approaches.Approach;
import dev.ryow.bench.Workload.Cell;
import dev.ryow.bench.Workload.Condition;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** A hand-written SVG of the workload: one panel per figure, bars per approach, grouped by condition. */
final class Chart {
  /** One per approach, in {@link Approaches#all()}'s order. */
  private static final String[] COLORS = {"#1b7837", "#7fbf7b", "#4575b4", "#d73027", "#8c510a", "#f4a582",
      "#8073ac"};
  private static final int PANEL_W = 410;
  private static final int PANEL_H = 250;
  private static final int LEFT = 52;
  private static final int TOP = 28;
  private static final int PLOT_W = PANEL_W - LEFT - 12;
  private static final int PLOT_H = PANEL_H - TOP - 34;
  private static final int HEADER = 58;

  private final List<Approach> approaches;
  private final List<Condition> conditions;
  private final List<Cell> cells;
  private final StringBuilder svg = new StringBuilder();
  private final String network;

  Chart(List<Approach> approaches, List<Condition> conditions, List<Cell> cells, String network) {
    this.approaches = approaches;
    this.conditions = conditions;
    this.cells = cells;
    this.network = network;
  }

  private record Panel(String title, ToDoubleFunction<Cell> value, ToDoubleFunction<Cell> whisker, boolean log,
      String format, double fixedMax) {}

  String svg() {
    List<Panel> panels = new java.util.ArrayList<>(List.of(
        new Panel("Read latency, ms: bar p50, line to p99 (log)", Cell::readP50, Cell::readP99, true, null, 0),
        new Panel("Write latency, ms: bar p50, line to p99 (log)", Cell::writeP50, Cell::writeP99, true, null, 0),
        new Panel("Stale reads, % of reads", c -> 100 * c.staleShare(), null, false, "%.1f", 100),
        new Panel("Reads served by the primary, %", c -> 100 * c.primaryShare(), null, false, "%.0f", 100),
        new Panel("Statements per iteration (all servers)", Cell::statementsPerIteration, null, false, "%.1f", 0),
        new Panel("Iterations per second", Cell::iterationsPerSecond, null, false, "%.0f", 0)));
    if (cells.stream().anyMatch(c -> c.roundTrips() >= 0)) {
      panels.add(1, new Panel("Round trips per iteration (all servers)", Cell::roundTripsPerIteration, null, false,
          "%.1f", 0));
    }
    int cols = 3;
    int rows = (panels.size() + cols - 1) / cols;
    int width = cols * PANEL_W;
    int height = HEADER + rows * PANEL_H;
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
    svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
    text(12, 20, "start", 14, "bold", "Read-your-own-write workload: approaches side by side, per lag condition" + network);
    double x = 12;
    for (int i = 0; i < approaches.size(); i++) {
      svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
          x, COLORS[i % COLORS.length]));
      text(x + 16, 42, "start", 12, "normal", approaches.get(i).name());
      x += 30 + 7.5 * approaches.get(i).name().length();
    }
    for (int p = 0; p < panels.size(); p++) {
      panel(panels.get(p), (p % cols) * PANEL_W, HEADER + (p / cols) * PANEL_H);
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private Cell find(Approach a, Condition c) {
    for (Cell cell : cells) {
      if (cell.approach().equals(a.name()) && cell.condition() == c) {
        return cell;
      }
    }
    return null;
  }

  private void panel(Panel panel, double ox, double oy) {
    double max = 0;
    double minPositive = Double.MAX_VALUE;
    for (Cell c : cells) {
      for (double v : new double[] {panel.value.applyAsDouble(c),
          panel.whisker == null ? Double.NaN : panel.whisker.applyAsDouble(c)}) {
        if (Double.isFinite(v)) {
          max = Math.max(max, v);
          if (v > 0) {
            minPositive = Math.min(minPositive, v);
          }
        }
      }
    }
    double lo;
    double hi;
    if (panel.log) {
      lo = Math.pow(10, Math.floor(Math.log10(minPositive == Double.MAX_VALUE ? 0.1 : minPositive)));
      hi = Math.pow(10, Math.ceil(Math.log10(max <= 0 ? 1 : max)));
      if (hi <= lo) {
        hi = lo * 10;
      }
    } else {
      lo = 0;
      hi = panel.fixedMax > 0 ? panel.fixedMax : niceCeiling(max <= 0 ? 1 : max * 1.08);
    }
    double px = ox + LEFT;
    double py = oy + TOP;
    text(ox + LEFT, oy + 16, "start", 12, "bold", panel.title);
    // Axis and grid.
    if (panel.log) {
      for (double t = lo; t <= hi * 1.0001; t *= 10) {
        gridLine(px, y(t, lo, hi, true, py), label(t));
      }
    } else {
      for (int i = 0; i <= 4; i++) {
        double t = hi * i / 4;
        gridLine(px, y(t, lo, hi, false, py), label(t));
      }
    }
    double groupW = (double) PLOT_W / conditions.size();
    double barW = groupW * 0.8 / approaches.size();
    for (int g = 0; g < conditions.size(); g++) {
      double gx = px + g * groupW;
      text(gx + groupW / 2, py + PLOT_H + 16, "middle", 11, "normal", conditions.get(g).label);
      for (int a = 0; a < approaches.size(); a++) {
        Cell c = find(approaches.get(a), conditions.get(g));
        if (c == null) {
          continue;
        }
        double v = panel.value.applyAsDouble(c);
        double bx = gx + groupW * 0.1 + a * barW;
        String color = COLORS[a % COLORS.length];
        if (Double.isFinite(v)) {
          double top = y(Math.max(v, panel.log ? lo : 0), lo, hi, panel.log, py);
          svg.append(String.format(Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s</title></rect>%n",
              bx, top, barW - 1, py + PLOT_H - top, color, approaches.get(a).name(), conditions.get(g).label,
              fmt(v)));
          if (panel.format != null) {
            text(bx + barW / 2, top - 3, "middle", 8, "normal",
                v == 0 ? "0" : String.format(Locale.ROOT, panel.format, v));
          }
        }
        if (panel.whisker != null) {
          double w = panel.whisker.applyAsDouble(c);
          if (Double.isFinite(w) && Double.isFinite(v)) {
            double cx = bx + (barW - 1) / 2;
            double y1 = y(Math.max(v, lo), lo, hi, true, py);
            double y2 = y(Math.max(w, lo), lo, hi, true, py);
            svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
                cx, y1, cx, y2, color));
            svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"1.5\">"
                    + "<title>p99 %s</title></line>%n", cx - barW / 3, y2, cx + barW / 3, y2, fmt(w)));
          }
        }
      }
    }
    svg.append(String.format(Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>%n", px, py + PLOT_H,
        px + PLOT_W, py + PLOT_H));
  }

  private void gridLine(double px, double y, String label) {
    svg.append(String.format(Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", px, y, px + PLOT_W, y));
    text(px - 4, y + 4, "end", 10, "normal", label);
  }

  private static double y(double v, double lo, double hi, boolean log, double py) {
    double f = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
    return py + PLOT_H - Math.max(0, Math.min(1, f)) * PLOT_H;
  }

  private static double niceCeiling(double v) {
    double e = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10}) {
      if (m * e >= v) {
        return m * e;
      }
    }
    return 10 * e;
  }

  private static String label(double v) {
    if (v == 0) {
      return "0";
    }
    if (v >= 100 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2g", v);
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3g", v);
  }

  private void text(double x, double y, String anchor, int size, String weight, String s) {
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" font-weight=\"%s\">%s</text>%n", x, y,
        anchor, size, weight, escape(s)));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
