package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/** Algebraic laws, a brute-force model, and parser robustness. */
class GtidSetPropertyTest {
  /** Includes UUIDs whose first bit is set, where signed and unsigned order differ. */
  static final String[] UUIDS = {
    "00000000-0000-0000-0000-000000000001",
    "3e11fa47-71ca-11e1-9e33-c80aa9429562",
    "8a94f357-aab4-11df-86ab-c80aa9429562",
    "8a94f357-aab4-11df-86ab-c80aa9429563",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
  };

  static final String[] TAGS = {"", "", "a", "tag_b", "_9"};

  static final long MAX = GtidSet.MAX_GNO;

  /** One written interval: {@code uuid[:tag]:start[-end]}. */
  record Element(int uuid, int tag, long start, long end, boolean upper) {
    String text() {
      String u = upper ? UUIDS[uuid].toUpperCase(Locale.ROOT) : UUIDS[uuid];
      String t = upper ? TAGS[tag].toUpperCase(Locale.ROOT) : TAGS[tag];
      return u + (t.isEmpty() ? "" : ":" + t) + ":" + start + (end == start && upper ? "" : "-" + end);
    }
  }

  /** Elements as written text: random separators, several intervals per group sometimes. */
  static String text(List<Element> elements, Random random) {
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? "" : " \n");
    for (int i = 0; i < elements.size(); i++) {
      Element e = elements.get(i);
      if (i > 0) {
        Element prev = elements.get(i - 1);
        if (prev.uuid == e.uuid && prev.tag == e.tag && random.nextBoolean()) {
          sb.append(':').append(e.start);
          if (e.end != e.start) {
            sb.append('-').append(e.end);
          }
          continue;
        }
        sb.append(random.nextBoolean() ? "," : random.nextBoolean() ? ",\n" : " ,\t");
      }
      sb.append(e.text());
    }
    return sb.toString();
  }

  static Arbitrary<Element> elements(Arbitrary<Long> starts, Arbitrary<Long> lengths) {
    return Combinators.combine(
            Arbitraries.integers().between(0, UUIDS.length - 1),
            Arbitraries.integers().between(0, TAGS.length - 1),
            starts,
            lengths,
            Arbitraries.of(true, false))
        .as((u, t, s, len, up) -> new Element(u, t, s, len > MAX - s ? MAX : s + len, up));
  }

  /** Sets over the whole number range, including numbers near the maximum. */
  @Provide
  Arbitrary<GtidSet> sets() {
    Arbitrary<Long> starts =
        Arbitraries.frequencyOf(
            Tuple.of(5, Arbitraries.longs().between(1, 100)),
            Tuple.of(2, Arbitraries.longs().between(MAX - 100, MAX)),
            Tuple.of(1, Arbitraries.longs().between(1, MAX)));
    Arbitrary<Long> lengths =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.longs().between(0, 20)),
            Tuple.of(1, Arbitraries.longs().between(0, MAX)));
    return Combinators.combine(
            elements(starts, lengths).list().ofMaxSize(12), Arbitraries.randoms())
        .as((els, random) -> GtidSet.parse(text(els, random)));
  }

  /** Sets of numbers 1..64 with their text, for comparison with a BitSet model. */
  @Provide
  Arbitrary<List<Element>> small() {
    return elements(Arbitraries.longs().between(1, 64), Arbitraries.longs().between(0, 8))
        .filter(e -> e.end <= 64)
        .list()
        .ofMaxSize(10);
  }

  // ---- union ----

  @Property
  void unionIsCommutative(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
    assertThat(a.union(b)).isEqualTo(b.union(a)).hasSameHashCodeAs(b.union(a));
  }

  @Property
  void unionIsAssociative(
      @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b, @ForAll("sets") GtidSet c) {
    assertThat(a.union(b).union(c)).isEqualTo(a.union(b.union(c)));
  }

  @Property
  void unionIsIdempotent(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
    assertThat(a.union(a)).isSameAs(a);
    GtidSet ab = a.union(b);
    assertThat(ab.union(b)).isSameAs(ab);
    assertThat(ab.union(a)).isSameAs(ab);
  }

  @Property
  void unionContainsBothOperands(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
    GtidSet ab = a.union(b);
    assertThat(ab.contains(a)).isTrue();
    assertThat(ab.contains(b)).isTrue();
    assertThat(ab.intervalCount()).isLessThanOrEqualTo(a.intervalCount() + b.intervalCount());
    if (a.contains(b)) {
      assertThat(ab).isSameAs(a);
    } else if (b.contains(a)) {
      assertThat(ab).isSameAs(b);
    } else {
      assertThat(ab).isNotEqualTo(a).isNotEqualTo(b);
    }
  }

  @Property
  void emptyIsTheUnionIdentity(@ForAll("sets") GtidSet a) {
    assertThat(a.union(GtidSet.EMPTY)).isSameAs(a);
    assertThat(GtidSet.EMPTY.union(a)).isSameAs(a);
    assertThat(a.contains(GtidSet.EMPTY)).isTrue();
    assertThat(GtidSet.EMPTY.contains(a)).isEqualTo(a.isEmpty());
  }

  // ---- contains ----

  @Property
  void containsIsReflexive(@ForAll("sets") GtidSet a) {
    assertThat(a.contains(a)).isTrue();
    assertThat(a.contains(GtidSet.parse(a.toString()))).isTrue();
  }

  @Property
  void containsIsTransitive(
      @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b, @ForAll("sets") GtidSet c) {
    GtidSet mid = c.union(b);
    GtidSet top = mid.union(a);
    assertThat(top.contains(mid) && mid.contains(c)).isTrue();
    assertThat(top.contains(c)).isTrue();
    if (a.contains(b) && b.contains(c)) {
      assertThat(a.contains(c)).isTrue();
    }
  }

  @Property
  void containsIsTransitiveOnSmallSets(
      @ForAll("small") List<Element> x, @ForAll("small") List<Element> y, @ForAll("small") List<Element> z) {
    GtidSet a = parse(x);
    GtidSet b = parse(y);
    GtidSet c = parse(z);
    boolean chain = a.contains(b) && b.contains(c);
    Statistics.label("a ⊇ b ⊇ c").collect(chain);
    if (chain) {
      assertThat(a.contains(c)).isTrue();
    }
  }

  @Property
  void containsIsAntisymmetric(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
    if (a.contains(b) && b.contains(a)) {
      assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
      assertThat(a.toString()).isEqualTo(b.toString());
    }
    GtidSet ab = a.union(b);
    GtidSet ba = b.union(a);
    assertThat(ab.contains(ba) && ba.contains(ab)).isTrue();
    assertThat(ab).isEqualTo(ba);
  }

  @Property
  void equalSetsWrittenDifferentlyAreEqual(
      @ForAll("small") List<Element> elements, @ForAll Random random) {
    List<Element> shuffled = new ArrayList<>(elements);
    Collections.shuffle(shuffled, random);
    GtidSet a = GtidSet.parse(text(elements, random));
    GtidSet b = GtidSet.parse(text(shuffled, random));
    assertThat(a.contains(b) && b.contains(a)).isTrue();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
  }

  // ---- text ----

  @Property
  void parsingTheTextGivesTheSameSet(@ForAll("sets") GtidSet a) {
    String text = a.toString();
    GtidSet again = GtidSet.parse(text);
    assertThat(again).isEqualTo(a).hasSameHashCodeAs(a);
    assertThat(again.toString()).isEqualTo(text);
    assertThat(again.intervalCount()).isEqualTo(a.intervalCount());
    assertThat(again.sourceCount()).isEqualTo(a.sourceCount());
    assertThat(text).isEqualTo(text.toLowerCase(Locale.ROOT)).doesNotContain(" ", "\n", ",,");
  }

  // ---- brute-force model over numbers 1..64 ----

  /** uuid -> tag -> GTID numbers; TreeMaps order like MySQL (untagged "" first). */
  static Map<String, TreeMap<String, BitSet>> model(List<Element> elements) {
    Map<String, TreeMap<String, BitSet>> m = new TreeMap<>();
    for (Element e : elements) {
      m.computeIfAbsent(UUIDS[e.uuid], k -> new TreeMap<>())
          .computeIfAbsent(TAGS[e.tag], k -> new BitSet())
          .set((int) e.start, (int) e.end + 1);
    }
    return m;
  }

  static Map<String, TreeMap<String, BitSet>> union(
      Map<String, TreeMap<String, BitSet>> a, Map<String, TreeMap<String, BitSet>> b) {
    Map<String, TreeMap<String, BitSet>> m = new TreeMap<>();
    for (Map<String, TreeMap<String, BitSet>> side : List.of(a, b)) {
      side.forEach(
          (uuid, tags) ->
              tags.forEach(
                  (tag, bits) ->
                      m.computeIfAbsent(uuid, k -> new TreeMap<>())
                          .computeIfAbsent(tag, k -> new BitSet())
                          .or(bits)));
    }
    return m;
  }

  static boolean contains(
      Map<String, TreeMap<String, BitSet>> big, Map<String, TreeMap<String, BitSet>> small) {
    for (var uuid : small.entrySet()) {
      for (var tag : uuid.getValue().entrySet()) {
        BitSet missing = (BitSet) tag.getValue().clone();
        BitSet have = big.getOrDefault(uuid.getKey(), new TreeMap<>()).get(tag.getKey());
        if (have != null) {
          missing.andNot(have);
        }
        if (!missing.isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }

  /** The model's canonical text, written independently of the implementation. */
  static String format(Map<String, TreeMap<String, BitSet>> m) {
    return m.entrySet().stream()
        .map(
            uuid -> {
              StringBuilder sb = new StringBuilder(uuid.getKey());
              uuid.getValue()
                  .forEach(
                      (tag, bits) -> {
                        if (!tag.isEmpty()) {
                          sb.append(':').append(tag.toLowerCase(Locale.ROOT));
                        }
                        for (int s = bits.nextSetBit(0); s >= 0; s = bits.nextSetBit(s + 1)) {
                          int e = bits.nextClearBit(s) - 1;
                          sb.append(':').append(s);
                          if (e > s) {
                            sb.append('-').append(e);
                          }
                          s = e;
                        }
                      });
              return sb.toString();
            })
        .collect(Collectors.joining(","));
  }

  static int intervals(Map<String, TreeMap<String, BitSet>> m) {
    int n = 0;
    for (TreeMap<String, BitSet> tags : m.values()) {
      for (BitSet bits : tags.values()) {
        for (int s = bits.nextSetBit(0); s >= 0; s = bits.nextSetBit(bits.nextClearBit(s))) {
          n++;
        }
      }
    }
    return n;
  }

  static GtidSet parse(List<Element> elements) {
    return GtidSet.parse(text(elements, new Random(elements.hashCode())));
  }

  @Property
  void canonicalTextAgreesWithModel(@ForAll("small") List<Element> elements) {
    GtidSet set = parse(elements);
    var m = model(elements);
    assertThat(set.toString()).isEqualTo(format(m));
    assertThat(set.intervalCount()).isEqualTo(intervals(m));
    assertThat(set.sourceCount()).isEqualTo(m.values().stream().mapToInt(Map::size).sum());
    assertThat(set.isEmpty()).isEqualTo(m.isEmpty());
  }

  @Property
  void containsAgreesWithModel(@ForAll("small") List<Element> x, @ForAll("small") List<Element> y) {
    boolean expected = contains(model(x), model(y));
    Statistics.label("contained").collect(expected);
    assertThat(parse(x).contains(parse(y))).isEqualTo(expected);
  }

  @Property
  void containsAgreesWithModelOnSubsets(
      @ForAll("small") List<Element> x, @ForAll Random random) {
    // A random sub-list is a subset, so containment is true far more often than for two
    // independent sets; dropping a GTID from it by hand makes near misses.
    List<Element> sub = new ArrayList<>();
    for (Element e : x) {
      if (random.nextBoolean()) {
        long s = e.start + random.nextInt((int) (e.end - e.start + 1));
        long end = s + random.nextInt((int) (e.end - s + 1));
        sub.add(new Element(e.uuid, e.tag, s, Math.min(64, end + (random.nextInt(8) == 0 ? 1 : 0)), e.upper));
      }
    }
    boolean expected = contains(model(x), model(sub));
    Statistics.label("contained").collect(expected);
    assertThat(parse(x).contains(parse(sub))).isEqualTo(expected);
  }

  @Property
  void filledFromAgreesWithModel(@ForAll("small") List<Element> x, @ForAll("small") List<Element> y) {
    var mine = model(x);
    var executed = model(y);
    // Expected: x plus, per (uuid, tag) of x, the GTIDs of y at or below x's highest GTID there.
    var expected = union(mine, Map.of());
    mine.forEach(
        (uuid, tags) ->
            tags.forEach(
                (tag, bits) -> {
                  BitSet theirs = executed.getOrDefault(uuid, new TreeMap<>()).get(tag);
                  if (theirs != null) {
                    BitSet below = theirs.get(0, bits.length());
                    expected.get(uuid).get(tag).or(below);
                  }
                }));
    GtidSet a = parse(x);
    GtidSet filled = a.filledFrom(parse(y));
    Statistics.label("grew").collect(!filled.equals(a));
    assertThat(filled.toString()).isEqualTo(format(expected));
    if (filled.equals(a)) {
      assertThat(filled).isSameAs(a);
    }
  }

  @Property
  void filledFromOnlyAddsExecutedGtids(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet executed) {
    GtidSet filled = a.filledFrom(executed);
    assertThat(filled.contains(a)).isTrue();
    assertThat(a.union(executed).contains(filled)).isTrue();
    assertThat(filled.sourceCount()).isEqualTo(a.sourceCount());
    assertThat(filled.filledFrom(executed)).isSameAs(filled);
  }

  @Property
  void spannedIsTheSmallestSupersetWithOneIntervalPerSource(@ForAll("small") List<Element> x) {
    GtidSet a = parse(x);
    GtidSet spanned = a.spanned();
    assertThat(spanned.contains(a)).isTrue();
    assertThat(spanned.sourceCount()).isEqualTo(a.sourceCount());
    assertThat(spanned.intervalCount()).isEqualTo(a.sourceCount());
    var expected = model(x);
    expected.values().forEach(tags -> tags.values().forEach(bits -> bits.set(bits.nextSetBit(0), bits.length())));
    assertThat(spanned.toString()).isEqualTo(format(expected));
    assertThat(spanned.spanned()).isSameAs(spanned);
  }

  @Property
  void singleGtidMembershipAgreesWithModel(@ForAll("small") List<Element> x) {
    GtidSet set = parse(x);
    var m = model(x);
    for (int u = 0; u < UUIDS.length; u++) {
      for (String tag : new String[] {"", "a", "tag_b", "_9"}) {
        BitSet bits = m.getOrDefault(UUIDS[u], new TreeMap<>()).getOrDefault(tag, new BitSet());
        for (int n = 1; n <= 65; n++) {
          GtidSet one = GtidSet.parse(UUIDS[u] + (tag.isEmpty() ? "" : ":" + tag) + ":" + n);
          assertThat(set.contains(one)).as("%s in %s", one, set).isEqualTo(bits.get(n));
        }
      }
    }
  }

  @Property
  void unionAgreesWithModel(@ForAll("small") List<Element> x, @ForAll("small") List<Element> y) {
    GtidSet u = parse(x).union(parse(y));
    var m = union(model(x), model(y));
    assertThat(u.toString()).isEqualTo(format(m));
    assertThat(u.intervalCount()).isEqualTo(intervals(m));
  }

  // ---- robustness ----

  @Provide
  Arbitrary<String> junk() {
    Arbitrary<String> alphabet =
        Arbitraries.strings()
            .withChars("0123456789abcdefABCDEFxgt_-:, \n\t\r'\"\\;\u0000\uff11\u0663\u212a\u00e4")
            .ofMaxLength(120);
    Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(80);
    Arbitrary<String> mutated =
        Combinators.combine(sets(), Arbitraries.randoms())
            .as(
                (set, random) -> {
                  StringBuilder sb = new StringBuilder(set.toString());
                  int count = 1 + random.nextInt(3);
                  for (int i = 0; i < count; i++) {
                    int at = sb.length() == 0 ? 0 : random.nextInt(sb.length());
                    String edits = ":-,0919aZ_ \u0663";
                    char c = edits.charAt(random.nextInt(edits.length()));
                    switch (random.nextInt(3)) {
                      case 0 -> sb.insert(at, c);
                      case 1 -> {
                        if (sb.length() > 0) {
                          sb.deleteCharAt(at);
                        }
                      }
                      default -> {
                        if (sb.length() > 0) {
                          sb.setCharAt(at, c);
                        }
                      }
                    }
                  }
                  return sb.toString();
                });
    return Arbitraries.oneOf(alphabet, anything, mutated);
  }

  @Property(tries = 3000)
  void parseFailsOnlyWithMalformedGtidSetException(@ForAll("junk") String input) {
    GtidSet set;
    try {
      set = GtidSet.parse(input, 4096, 64);
    } catch (MalformedGtidSetException e) {
      Statistics.label("outcome").collect("malformed");
      assertThat(e.offset()).isBetween(0, input.length());
      assertThat(e.getMessage()).startsWith("Malformed GTID set: ").doesNotContain("\n", "\r");
      assertThat(e.getMessage().length()).isLessThan(600);
      return;
    }
    Statistics.label("outcome").collect("parsed");
    assertThat(GtidSet.parse(set.toString())).isEqualTo(set);
  }
}
