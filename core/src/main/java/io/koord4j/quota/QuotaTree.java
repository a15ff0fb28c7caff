package io.koord4j.quota;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validated, immutable shape of an ElasticQuota tree: names, parents and the spec amounts of
 * every quota, under the implicit root {@value #ROOT}.
 *
 * <p>Quotas are numbered in pre-order with siblings sorted by name, so a parent always precedes
 * its children, a reverse walk visits children first, and sibling index order is name order (the
 * tie-break order of the runtime split). Spec amounts are kept as arrays indexed by quota and
 * resource so the runtime calculation runs without maps.
 *
 * <p>A quota directly under the root whose spec carries a {@link QuotaSpec#treeTotal} roots a
 * tree of its own, as an ElasticQuotaProfile's root quota does in Koordinator: what is used below
 * it stops there, and the runtime of its tree is split from its total alone. Every other quota
 * belongs to the default tree, which the implicit root stands for.
 *
 * <p>A tree is at most {@value #MAX_DEPTH} quotas deep below the root, far deeper than an
 * organisation needs. The tree is built and checked without recursion, so a longer chain, which
 * only a mistake or a tenant bent on stalling the controllers would write, is refused with a
 * violation on the quota where it passes the limit instead of overflowing the stack.
 */
public final class QuotaTree {

  public static final String ROOT = "koordinator-root-quota";
  /** Koordinator's quota for system pods: under the root, outside the runtime split. */
  public static final String SYSTEM = "koordinator-system-quota";
  /** Koordinator's quota for work that names no quota: under the root, outside the split. */
  public static final String DEFAULT = "koordinator-default-quota";
  /** How many levels of quotas a tree may have below the implicit root. */
  public static final int MAX_DEPTH = 64;
  static final int ROOT_INDEX = 0;

  private final String[] names;
  private final QuotaSpec[] specs;
  private final int[] parents;
  private final int[][] children;
  private final Map<String, Integer> indexByName;
  private final String[] resources;
  private final Map<String, Integer> indexByResource;
  // Spec amounts by [quota][resource]; the root has min 0 and no max.
  final long[][] min;
  final long[][] max;
  final long[][] sharedWeight;
  final long[][] guaranteed;
  /** Whether a quota's max names a resource; an ungoverned resource is not limited there. */
  final boolean[][] governs;
  private final boolean[] outsideShare;
  /** The total of the tree a quota roots, by resource; null for quotas that root no tree. */
  final long[][] treeTotal;

  private QuotaTree(Collection<QuotaSpec> input) {
    Map<String, List<QuotaSpec>> byParent = new HashMap<>();
    for (QuotaSpec spec : input) {
      String parent = spec.parent().isEmpty() ? ROOT : spec.parent();
      byParent.computeIfAbsent(parent, p -> new ArrayList<>()).add(spec);
    }
    List<QuotaSpec> preOrder = new ArrayList<>(input.size() + 1);
    List<Integer> parentOf = new ArrayList<>(input.size() + 1);
    preOrder.add(null);
    parentOf.add(-1);
    appendBelowRoot(byParent, preOrder, parentOf);

    int n = preOrder.size();
    names = new String[n];
    specs = preOrder.toArray(new QuotaSpec[0]);
    parents = parentOf.stream().mapToInt(Integer::intValue).toArray();
    indexByName = new HashMap<>(n * 2);
    names[ROOT_INDEX] = ROOT;
    for (int q = 1; q < n; q++) {
      names[q] = specs[q].name();
    }
    for (int q = 0; q < n; q++) {
      indexByName.put(names[q], q);
    }
    children = childIndexes(parents);
    outsideShare = new boolean[n];
    for (int q = 1; q < n; q++) {
      outsideShare[q] = parents[q] == ROOT_INDEX && (names[q].equals(SYSTEM) || names[q].equals(DEFAULT));
    }

    Set<String> resourceNames = new TreeSet<>();
    input.forEach(spec -> resourceNames.addAll(spec.max().resourceNames()));
    resources = resourceNames.toArray(new String[0]);
    indexByResource = new HashMap<>();
    for (int r = 0; r < resources.length; r++) {
      indexByResource.put(resources[r], r);
    }

    min = new long[n][];
    max = new long[n][];
    sharedWeight = new long[n][];
    guaranteed = new long[n][];
    governs = new boolean[n][resources.length];
    min[ROOT_INDEX] = new long[resources.length];
    max[ROOT_INDEX] = new long[resources.length];
    sharedWeight[ROOT_INDEX] = new long[resources.length];
    guaranteed[ROOT_INDEX] = new long[resources.length];
    Arrays.fill(max[ROOT_INDEX], Long.MAX_VALUE);
    Arrays.fill(governs[ROOT_INDEX], true);
    for (int q = 1; q < n; q++) {
      min[q] = toArray(specs[q].min());
      max[q] = toArray(specs[q].max());
      sharedWeight[q] = toArray(specs[q].sharedWeight());
      guaranteed[q] = toArray(specs[q].guaranteed());
      for (int r = 0; r < resources.length; r++) {
        governs[q][r] = specs[q].max().has(resources[r]);
      }
    }
    treeTotal = new long[n][];
    for (int q = 1; q < n; q++) {
      if (parents[q] == ROOT_INDEX && !outsideShare[q] && specs[q].treeTotal() != null) {
        treeTotal[q] = toArray(specs[q].treeTotal());
      }
    }
  }

  /**
   * Builds the tree, or throws {@link InvalidQuotaTreeException} listing every broken rule.
   *
   * @param specs all quotas of one tree; a quota with an empty parent hangs under {@value #ROOT}
   */
  public static QuotaTree of(Collection<QuotaSpec> specs) {
    List<String> violations = violations(specs);
    if (!violations.isEmpty()) {
      throw new InvalidQuotaTreeException(violations);
    }
    return new QuotaTree(specs);
  }

  /** Every tree rule the specs break, one message each naming the quota; empty when valid. */
  public static List<String> violations(Collection<QuotaSpec> specs) {
    return violations(specs, (resource, amount) -> Long.toString(amount)).stream()
        .map(QuotaViolation::toString)
        .toList();
  }

  /**
   * Every tree rule the specs break, ordered by quota, with the field at fault; amounts in the
   * rules are written by {@code format}.
   */
  public static List<QuotaViolation> violations(
      Collection<QuotaSpec> specs, AmountFormat format) {
    return QuotaTreeValidator.violations(specs, format);
  }

  /** Writes an amount in base units for people, e.g. {@link BaseUnits#format}. */
  @FunctionalInterface
  public interface AmountFormat {
    String format(String resource, long amount);
  }

  public boolean contains(String quota) {
    return indexByName.containsKey(quota);
  }

  /** The spec of a quota; the implicit root has none. */
  public QuotaSpec spec(String quota) {
    int q = indexOf(quota);
    if (q == ROOT_INDEX) {
      throw new IllegalArgumentException("the implicit root quota " + ROOT + " has no spec");
    }
    return specs[q];
  }

  /** The parent's name; {@value #ROOT} for top-level quotas, null for the root itself. */
  public String parentOf(String quota) {
    int parent = parents[indexOf(quota)];
    return parent < 0 ? null : names[parent];
  }

  /** Children names in name order. */
  public List<String> childrenOf(String quota) {
    return Arrays.stream(children[indexOf(quota)]).mapToObj(c -> names[c]).toList();
  }

  /** True for quotas that units may use: neither the root nor marked is-parent. */
  public boolean isLeaf(String quota) {
    return isLeaf(indexOf(quota));
  }

  /** Every resource named in some quota's max, in name order. */
  public List<String> resourceNames() {
    return List.of(resources);
  }

  int size() {
    return names.length;
  }

  String name(int q) {
    return names[q];
  }

  int parent(int q) {
    return parents[q];
  }

  int[] children(int q) {
    return children[q];
  }

  /** Whether {@code q} roots a tree of its own (see the class comment). */
  boolean rootsTree(int q) {
    return treeTotal[q] != null;
  }

  /**
   * The next quota up whose amounts include {@code q}'s: its parent, except for the root of a tree
   * of its own and the root itself (-1).
   */
  int up(int q) {
    return rootsTree(q) ? -1 : parents[q];
  }

  boolean isLeaf(int q) {
    return q != ROOT_INDEX && !specs[q].isParent();
  }

  /**
   * Whether {@code q} is the system or default quota under the root: as in Koordinator, its
   * runtime is its max, and what it uses is taken off what the root shares among the others.
   */
  boolean outsideShare(int q) {
    return outsideShare[q];
  }

  boolean lends(int q) {
    return q == ROOT_INDEX || specs[q].allowLentResource();
  }

  int resourceCount() {
    return resources.length;
  }

  String resource(int r) {
    return resources[r];
  }

  /** Index of a resource, or -1 when no quota governs it. */
  int resourceIndex(String resource) {
    return indexByResource.getOrDefault(resource, -1);
  }

  int indexOf(String quota) {
    Integer q = indexByName.get(quota);
    if (q == null) {
      throw new IllegalArgumentException("unknown quota \"" + quota + "\"");
    }
    return q;
  }

  /** True when {@code q} is {@code ancestor} or lies below it, in the same tree. */
  boolean isWithin(int q, int ancestor) {
    for (int p = q; p >= 0; p = up(p)) {
      if (p == ancestor) {
        return true;
      }
    }
    return false;
  }

  /** Amounts by resource index; resources no quota governs are dropped. */
  long[] toArray(ResourceVector amounts) {
    long[] out = new long[resources.length];
    amounts.forEach((resource, amount) -> {
      int r = resourceIndex(resource);
      if (r >= 0) {
        out[r] = amount;
      }
    });
    return out;
  }

  /** Numbers the quotas below the root in pre-order, siblings by name, with a stack of its own. */
  private static void appendBelowRoot(
      Map<String, List<QuotaSpec>> byParent, List<QuotaSpec> preOrder, List<Integer> parentOf) {
    Deque<Placement> pending = new ArrayDeque<>();
    pushChildren(ROOT, ROOT_INDEX, byParent, pending);
    while (!pending.isEmpty()) {
      Placement next = pending.pop();
      int index = preOrder.size();
      preOrder.add(next.spec());
      parentOf.add(next.parentIndex());
      pushChildren(next.spec().name(), index, byParent, pending);
    }
  }

  /** Pushed last name first, so that the first name is numbered first. */
  private static void pushChildren(
      String parentName,
      int parentIndex,
      Map<String, List<QuotaSpec>> byParent,
      Deque<Placement> pending) {
    byParent.getOrDefault(parentName, List.of()).stream()
        .sorted(Comparator.comparing(QuotaSpec::name).reversed())
        .forEach(kid -> pending.push(new Placement(kid, parentIndex)));
  }

  private record Placement(QuotaSpec spec, int parentIndex) {}

  private static int[][] childIndexes(int[] parents) {
    int[] counts = new int[parents.length];
    for (int q = 1; q < parents.length; q++) {
      counts[parents[q]]++;
    }
    int[][] out = new int[parents.length][];
    for (int q = 0; q < parents.length; q++) {
      out[q] = new int[counts[q]];
      counts[q] = 0;
    }
    for (int q = 1; q < parents.length; q++) {
      out[parents[q]][counts[parents[q]]++] = q;
    }
    return out;
  }
}
