package dev.ryow.jdbc.sql;

/**
 * A fixed set of words, each with an int code, looked up in a region of a text without allocation,
 * ignoring ASCII case only (so that {@code ı} or {@code ſ} never match, as in MySQL's own keyword
 * lookup).
 *
 * <p>The words are bucketed by length and first letter: a lookup reads the first char and two
 * array slots, and compares the rest of the region with the few words of its bucket (most buckets
 * are empty, so most identifiers are rejected there).
 */
final class WordTable {

  private static final int LETTERS = 26;

  private final int maxLength;
  /** For bucket {@code length * 26 + letter}: its first index in {@link #words}; one more slot at the end. */
  private final int[] bucketStart;
  /** The upper-case spellings, ordered by bucket. */
  private final char[][] words;
  /** The code of each of {@link #words}. */
  private final int[] codes;

  /**
   * A table of {@code names[i]} with code {@code codes[i]}; every name is an upper-case ASCII word
   * starting with a letter ({@code KeywordsTest} checks the names).
   */
  WordTable(String[] names, int[] codes) {
    int longest = 0;
    for (String name : names) {
      longest = Math.max(longest, name.length());
    }
    this.maxLength = longest;
    int buckets = (longest + 1) * LETTERS;
    int[] counts = new int[buckets + 1];
    for (String name : names) {
      counts[bucket(name.length(), name.charAt(0) - 'A') + 1]++;
    }
    for (int b = 0; b < buckets; b++) {
      counts[b + 1] += counts[b];
    }
    this.bucketStart = counts.clone();
    this.words = new char[names.length][];
    this.codes = new int[names.length];
    int[] fill = counts;
    for (int i = 0; i < names.length; i++) {
      int at = fill[bucket(names[i].length(), names[i].charAt(0) - 'A')]++;
      words[at] = names[i].toCharArray();
      this.codes[at] = codes[i];
    }
  }

  private static int bucket(int length, int letter) {
    return length * LETTERS + letter;
  }

  /** The code of the word {@code s[start, end)}, or {@code none}. */
  int lookup(String s, int start, int end, int none) {
    int length = end - start;
    if (length <= 0 || length > maxLength) {
      return none;
    }
    // Only the ASCII letters map to 0..25 here.
    int letter = (s.charAt(start) | 0x20) - 'a';
    if (letter < 0 || letter >= LETTERS) {
      return none;
    }
    int b = bucket(length, letter);
    for (int j = bucketStart[b], last = bucketStart[b + 1]; j < last; j++) {
      if (restEquals(s, start, words[j])) {
        return codes[j];
      }
    }
    return none;
  }

  /**
   * Whether {@code s} from {@code start + 1} holds {@code upper} from its second char on, ignoring
   * ASCII case only (the caller checked the first char and that {@code s} has that many chars).
   */
  private static boolean restEquals(String s, int start, char[] upper) {
    for (int k = 1; k < upper.length; k++) {
      char c = s.charAt(start + k);
      if (c >= 'a' && c <= 'z') {
        c = (char) (c - ('a' - 'A'));
      }
      if (c != upper[k]) {
        return false;
      }
    }
    return true;
  }
}
