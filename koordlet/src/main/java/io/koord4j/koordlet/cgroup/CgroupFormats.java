package io.koord4j.koordlet.cgroup;

import io.koord4j.koordlet.files.Ascii;
import java.util.regex.Pattern;

/** Parsers and printers of the cgroup interface files koordlet reads and writes; no I/O. */
public final class CgroupFormats {
  private CgroupFormats() {}

  /** The kernel's default CFS period, in microseconds. */
  public static final long DEFAULT_CFS_PERIOD_US = 100_000;
  /** v1's {@code cpu.cfs_quota_us} value for no limit. */
  public static final long UNLIMITED_QUOTA = -1;

  private static final Pattern FIELDS = Pattern.compile("\\s+");

  /**
   * One value of a flat-keyed file such as {@code cpu.stat} or {@code memory.stat} ("key value"
   * per line), null when the key is absent. Scans in place: it runs per pod per sample.
   */
  public static Long keyedValue(String file, CharSequence content, String key) {
    int from = 0;
    while (from < content.length()) {
      int end = Ascii.lineEnd(content, from);
      int afterKey = from + key.length();
      if (afterKey < end && Ascii.startsWith(content, from, key) && Ascii.isSpace(content.charAt(afterKey))) {
        return number(file, content, afterKey, end, key + " ");
      }
      from = end + 1;
    }
    return null;
  }

  /** A file holding one integer, such as {@code cpuacct.usage} or {@code memory.current}; "max" is unlimited. */
  public static long singleValue(String file, CharSequence content) {
    int start = Ascii.skipSpaces(content, 0, content.length());
    int end = Ascii.wordEnd(content, start, content.length());
    if (end - start == 3 && Ascii.startsWith(content, start, "max")) {
      return Long.MAX_VALUE;
    }
    return number(file, content, 0, content.length(), "");
  }

  /** The integer that is alone, but for spaces, in [from, to). */
  private static long number(String file, CharSequence content, int from, int to, String label) {
    int start = Ascii.skipSpaces(content, from, to);
    int end = Ascii.wordEnd(content, start, to);
    if (start == end || Ascii.skipSpaces(content, end, to) != to) {
      throw notANumber(file, content, from, to, label, null);
    }
    try {
      return Long.parseLong(content, start, end, 10);
    } catch (NumberFormatException e) {
      throw notANumber(file, content, from, to, label, e);
    }
  }

  private static IllegalArgumentException notANumber(
      String file, CharSequence content, int from, int to, String label, NumberFormatException cause) {
    String text = label + Ascii.trimmed(content, from, to);
    return new IllegalArgumentException(
        file + ": \"" + text.trim() + "\" is not " + (label.isEmpty() ? "an integer" : "\"key number\""), cause);
  }

  /** A required key of a keyed file. */
  public static long required(String file, CharSequence content, String key) {
    Long value = keyedValue(file, content, key);
    if (value == null) {
      throw new IllegalArgumentException(file + " has no \"" + key + "\" line");
    }
    return value;
  }

  /** v2's {@code cpu.max}: "quota period", quota "max" when unlimited; returns the quota in µs or -1. */
  public static long cpuMaxQuota(String content) {
    String[] parts = FIELDS.split(content.trim());
    if (parts.length != 2) {
      throw new IllegalArgumentException("cpu.max: \"" + content.trim() + "\" is not \"quota period\"");
    }
    return parts[0].equals("max") ? UNLIMITED_QUOTA : singleValue("cpu.max", parts[0]);
  }

  /** v2's {@code cpu.max} line for a quota in µs (-1 for none). */
  public static String cpuMax(long quotaUs, long periodUs) {
    return (quotaUs < 0 ? "max" : Long.toString(quotaUs)) + " " + periodUs;
  }

  /** The kubelet's conversion of v1 cpu.shares [2, 262144] to v2 cpu.weight [1, 10000]. */
  public static long sharesToWeight(long shares) {
    long clamped = Math.max(2, Math.min(262_144, shares));
    return 1 + ((clamped - 2) * 9_999) / 262_142;
  }
}
