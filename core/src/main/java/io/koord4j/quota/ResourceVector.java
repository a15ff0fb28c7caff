package io.koord4j.quota;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import java.util.function.ObjLongConsumer;

/**
 * Immutable amounts per resource name, in base units: milli-CPU for {@code cpu}, bytes for
 * memory, counts for everything else.
 *
 * <p>A resource that is absent counts as zero in arithmetic and comparisons, but the key set is
 * kept as given (zeros included) because a quota's {@code max} uses it to say which resources the
 * quota governs. Entries are stored as parallel arrays sorted by name, so merging two vectors is
 * a linear walk without hashing. Names are interned as vectors are made, so that looking up a
 * name given as a constant, or merging vectors over the same resources, mostly compares
 * references: names read from JSON are new strings for every object.
 */
public final class ResourceVector {

  public static final ResourceVector EMPTY = new ResourceVector(new String[0], new long[0]);

  private final String[] names;
  private final long[] amounts;

  private ResourceVector(String[] names, long[] amounts) {
    this.names = names;
    this.amounts = amounts;
  }

  public static ResourceVector of(Map<String, Long> amounts) {
    TreeMap<String, Long> sorted = new TreeMap<>(amounts);
    String[] names = new String[sorted.size()];
    long[] values = new long[names.length];
    int i = 0;
    for (Map.Entry<String, Long> entry : sorted.entrySet()) {
      names[i] = entry.getKey().intern();
      values[i++] = entry.getValue();
    }
    return new ResourceVector(names, values);
  }

  public static ResourceVector of(String resource, long amount) {
    return new ResourceVector(new String[] {resource.intern()}, new long[] {amount});
  }

  public static ResourceVector of(String r1, long a1, String r2, long a2) {
    return of(Map.of(r1, a1, r2, a2));
  }

  public static ResourceVector of(String r1, long a1, String r2, long a2, String r3, long a3) {
    return of(Map.of(r1, a1, r2, a2, r3, a3));
  }

  /** The amount of {@code resource}, zero when absent. */
  public long get(String resource) {
    for (int i = 0; i < names.length; i++) {
      if (names[i] == resource) {
        return amounts[i];
      }
    }
    int i = Arrays.binarySearch(names, resource);
    return i >= 0 ? amounts[i] : 0;
  }

  public boolean has(String resource) {
    return Arrays.binarySearch(names, resource) >= 0;
  }

  /** Resource names in ascending order. */
  public Set<String> resourceNames() {
    return asMap().keySet();
  }

  public Map<String, Long> asMap() {
    TreeMap<String, Long> map = new TreeMap<>();
    for (int i = 0; i < names.length; i++) {
      map.put(names[i], amounts[i]);
    }
    return Collections.unmodifiableMap(map);
  }

  public ResourceVector add(ResourceVector other) {
    return merge(other, Long::sum);
  }

  public ResourceVector subtract(ResourceVector other) {
    return merge(other, (a, b) -> a - b);
  }

  /** Per-resource minimum over the union of names, absent counting as zero. */
  public ResourceVector min(ResourceVector other) {
    return merge(other, Math::min);
  }

  /** Per-resource maximum over the union of names, absent counting as zero. */
  public ResourceVector max(ResourceVector other) {
    return merge(other, Math::max);
  }

  /**
   * {@code part / whole} of every amount, rounded up, so that a share of a request is never
   * charged short.
   */
  public ResourceVector share(long part, long whole) {
    if (whole <= 0 || part < 0 || part > whole) {
      throw new IllegalArgumentException("a share must lie between 0 and 1, not " + part + "/" + whole);
    }
    long[] shares = new long[amounts.length];
    for (int i = 0; i < amounts.length; i++) {
      shares[i] = -Math.floorDiv(-Math.multiplyExact(amounts[i], part), whole);
    }
    return new ResourceVector(names, shares);
  }

  /** True when every amount here is at most the same resource's amount in {@code limit}. */
  public boolean fitsIn(ResourceVector limit) {
    for (int i = 0; i < names.length; i++) {
      if (amounts[i] > limit.get(names[i])) {
        return false;
      }
    }
    return true;
  }

  public boolean isZero() {
    for (long amount : amounts) {
      if (amount != 0) {
        return false;
      }
    }
    return true;
  }

  public boolean hasNegative() {
    for (long amount : amounts) {
      if (amount < 0) {
        return true;
      }
    }
    return false;
  }

  int size() {
    return names.length;
  }

  /** Hands each resource and its amount to {@code action}, in name order, without boxing. */
  void forEach(ObjLongConsumer<String> action) {
    for (int i = 0; i < names.length; i++) {
      action.accept(names[i], amounts[i]);
    }
  }

  private ResourceVector merge(ResourceVector other, LongBinaryOperator op) {
    String[] outNames = new String[names.length + other.names.length];
    long[] outAmounts = new long[outNames.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < names.length || j < other.names.length) {
      int cmp =
          i == names.length ? 1 : j == other.names.length ? -1 : compare(names[i], other.names[j]);
      if (cmp < 0) {
        outNames[n] = names[i];
        outAmounts[n++] = op.applyAsLong(amounts[i++], 0);
      } else if (cmp > 0) {
        outNames[n] = other.names[j];
        outAmounts[n++] = op.applyAsLong(0, other.amounts[j++]);
      } else {
        outNames[n] = names[i];
        outAmounts[n++] = op.applyAsLong(amounts[i++], other.amounts[j++]);
      }
    }
    return new ResourceVector(Arrays.copyOf(outNames, n), Arrays.copyOf(outAmounts, n));
  }

  private static int compare(String a, String b) {
    return a == b ? 0 : a.compareTo(b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceVector v
        && Arrays.equals(names, v.names)
        && Arrays.equals(amounts, v.amounts);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(names) + Arrays.hashCode(amounts);
  }

  @Override
  public String toString() {
    return asMap().toString();
  }
}
