package io.boxoffice.common;

/**
 * Text a person types that the platform keeps and shows again (a venue's or an event's name):
 * printable characters only. Control characters (PostgreSQL refuses U+0000 in text, and a line
 * break or escape has no place in a name, a log line or a page), invisible format characters
 * (bidirectional overrides, zero-width characters), line and paragraph separators, lone
 * surrogates, private-use and unassigned code points are refused where the text enters
 * (DESIGN invariant 14); ordinary spaces are fine.
 */
public final class TypedText {
  private TypedText() {}

  /** True when {@code text} (not null) has only characters a name may show. */
  public static boolean printable(String text) {
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (!printable(cp)) return false;
      i += Character.charCount(cp);
    }
    return true;
  }

  private static boolean printable(int cp) {
    if (cp == ' ') return true;
    if (Character.isISOControl(cp)) return false;
    return switch (Character.getType(cp)) {
      case Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
           Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.CONTROL -> false;
      default -> true;
    };
  }

  /** {@code text} when it is a 1-{@code max} character name of printable characters; otherwise a sentence for a person. */
  public static String name(String field, String text, int max) {
    if (text == null || text.isBlank() || text.length() > max) {
      throw new IllegalArgumentException(field + " must be 1-" + max + " characters");
    }
    if (!printable(text)) {
      throw new IllegalArgumentException(field + " must not contain control or invisible characters");
    }
    return text;
  }
}
