package io.koord4j.koordlet.cgroup;

import java.util.HashMap;
import java.util.Map;

/** Parsers and printers of the cgroup interface files koordlet reads and writes; no I/O. */
public final class CgroupFormats {
  private CgroupFormats() {}

  /** The kernel's default CFS period, in microseconds. */
  public static final long DEFAULT_CFS_PERIOD_US = 100_000;
  /** v1's {@code cpu.cfs_quota_us} value for no limit. */
  public static final long UNLIMITED_QUOTA = -1;

  /** Flat-keyed files such as {@code cpu.stat} and {@code memory.stat}: "key value" per line. */
  public static Map<String, Long> keyedValues(String file, String content) {
    Map<String, Long> values = new HashMap<>();
    for (String line : content.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length == 2) {
        try {
          values.put(parts[0], Long.parseLong(parts[1]));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(file + ": \"" + line + "\" is not \"key number\"", e);
        }
      }
    }
    return values;
  }

  /** A file holding one integer, such as {@code cpuacct.usage} or {@code memory.current}. */
  public static long singleValue(String file, String content) {
    String value = content.trim();
    if (value.equals("max")) {
      return Long.MAX_VALUE;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(file + ": \"" + value + "\" is not an integer", e);
    }
  }

  /** A required key of a keyed file. */
  public static long required(Map<String, Long> values, String file, String key) {
    Long value = values.get(key);
    if (value == null) {
      throw new IllegalArgumentException(file + " has no \"" + key + "\" line");
    }
    return value;
  }

  /** v2's {@code cpu.max}: "quota period", quota "max" when unlimited; returns the quota in µs or -1. */
  public static long cpuMaxQuota(String content) {
    String[] parts = content.trim().split("\\s+");
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
