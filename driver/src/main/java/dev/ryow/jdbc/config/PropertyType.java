package dev.ryow.jdbc.config;

import java.util.List;

/**
 * How the text of one {@code ryow.*} property becomes a typed value.
 *
 * @param <T> the value type
 */
interface PropertyType<T> {

  /**
   * Parses {@code text}; throws {@link IllegalArgumentException} whose message says what is expected
   * and what is wrong, never quoting the value (it may be a secret, or part of one).
   */
  T parse(String text);

  /**
   * The accepted values, for {@code getPropertyInfo} and the property table of the docs, or an empty list for
   * free-form values.
   */
  List<String> choices();

  /** A short human description of what is accepted, e.g. {@code "integer 1..60000"}. */
  String describe();

  /** An integer within inclusive bounds. */
  static PropertyType<Integer> integer(int min, int max) {
    return new PropertyType<>() {
      @Override
      public Integer parse(String text) {
        int value;
        try {
          value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
          // Without the cause: its message quotes the text.
          throw new IllegalArgumentException("expected " + describe() + " but it is not a whole number");
        }
        if (value < min || value > max) {
          throw new IllegalArgumentException("expected " + describe() + " but it is " + (value < min ? "below" : "above")
              + " that range");
        }
        return value;
      }

      @Override
      public List<String> choices() {
        return List.of();
      }

      @Override
      public String describe() {
        return "integer " + min + ".." + max;
      }
    };
  }

  /**
   * Free text whose length is 0 (unset) or between {@code minLength} and {@code maxLength}; for
   * secrets, the value never appears in messages.
   */
  static PropertyType<String> secret(int minLength, int maxLength) {
    return new PropertyType<>() {
      @Override
      public String parse(String text) {
        if (!text.isEmpty() && (text.length() < minLength || text.length() > maxLength)) {
          throw new IllegalArgumentException("expected " + describe() + " but it has " + text.length() + " characters");
        }
        return text;
      }

      @Override
      public List<String> choices() {
        return List.of();
      }

      @Override
      public String describe() {
        return "empty, or a secret of " + minLength + ".." + maxLength + " characters";
      }
    };
  }

  /** Free text of at most {@code maxLength} characters without control characters (empty allowed). */
  static PropertyType<String> text(int maxLength) {
    return new PropertyType<>() {
      @Override
      public String parse(String text) {
        if (text.length() > maxLength) {
          throw new IllegalArgumentException("expected " + describe() + " but it has " + text.length() + " characters");
        }
        for (int i = 0; i < text.length(); i++) {
          if (Character.isISOControl(text.charAt(i))) {
            throw new IllegalArgumentException("expected " + describe() + " but it contains a control character");
          }
        }
        return text;
      }

      @Override
      public List<String> choices() {
        return List.of();
      }

      @Override
      public String describe() {
        return "text, at most " + maxLength + " characters";
      }
    };
  }

  /** {@code true} or {@code false} (case-insensitive); nothing else. */
  static PropertyType<Boolean> bool() {
    return new PropertyType<>() {
      @Override
      public Boolean parse(String text) {
        String wanted = text.trim();
        if (wanted.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (wanted.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
        throw new IllegalArgumentException("expected true or false but it is neither");
      }

      @Override
      public List<String> choices() {
        return List.of("true", "false");
      }

      @Override
      public String describe() {
        return "true or false";
      }
    };
  }

  /** One of the constants of {@code type}, written in lower case (case-insensitive on input). */
  static <E extends Enum<E>> PropertyType<E> choice(Class<E> type) {
    E[] constants = type.getEnumConstants();
    List<String> names = java.util.Arrays.stream(constants).map(PropertyType::choiceName).toList();
    return new PropertyType<>() {
      @Override
      public E parse(String text) {
        String wanted = text.trim();
        for (E constant : constants) {
          if (choiceName(constant).equalsIgnoreCase(wanted)) {
            return constant;
          }
        }
        throw new IllegalArgumentException("expected one of " + names + " but it is none of them");
      }

      @Override
      public List<String> choices() {
        return names;
      }

      @Override
      public String describe() {
        return "one of " + String.join(", ", names);
      }
    };
  }

  /** The external name of an enum constant: its name in lower case. */
  static String choiceName(Enum<?> constant) {
    return constant.name().toLowerCase(java.util.Locale.ROOT);
  }
}
