package io.koord4j.koordlet.files;

/** Scanning of kernel interface text in place, without substrings or regular expressions. */
public final class Ascii {
  private Ascii() {}

  /** Whether {@code text} holds {@code prefix} at {@code at}. */
  public static boolean startsWith(CharSequence text, int at, String prefix) {
    if (at + prefix.length() > text.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (text.charAt(at + i) != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** The index of the line end ('\n' or the text's end) at or after {@code from}. */
  public static int lineEnd(CharSequence text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) != '\n') {
      i++;
    }
    return i;
  }

  public static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  /** The first index in [from, to) that is not a space, or {@code to}. */
  public static int skipSpaces(CharSequence text, int from, int to) {
    int i = from;
    while (i < to && isSpace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The end of the word (no spaces) that starts at {@code from}, at most {@code to}. */
  public static int wordEnd(CharSequence text, int from, int to) {
    int i = from;
    while (i < to && !isSpace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The text in [from, to) without its surrounding spaces, as a String: for error messages only. */
  public static String trimmed(CharSequence text, int from, int to) {
    int end = to;
    while (end > from && isSpace(text.charAt(end - 1))) {
      end--;
    }
    return text.subSequence(skipSpaces(text, from, end), end).toString();
  }
}
