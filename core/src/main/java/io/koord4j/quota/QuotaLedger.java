package io.koord4j.quota;

import java.util.Arrays;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.IntToLongFunction;

/**
 * Pending and used amounts of the units of a quota tree, the runtime quota derived from them, and
 * the admission check.
 *
 * <p>Amounts are recorded on leaf quotas; used amounts are also added to every ancestor up to the
 * root of the leaf's tree (see {@link QuotaTree}). The
 * runtime is recalculated lazily on the first query after the demand (pending plus used) or the
 * cluster total changed; {@link #admit} moves an amount from pending to used without changing
 * demand, so a queue pass that admits units one by one does not trigger recalculation.
 *
 * <p>Outputs per quota list only the resources that quota governs (those named in its max; the
 * root governs all). Resources no quota governs are ignored. Not thread-safe: one queue pass or
 * scheduling cycle owns a ledger at a time.
 */
public final class QuotaLedger {

  private final QuotaTree tree;
  private final RuntimeQuotaCalculator calculator;
  private final long[][] pending;
  private final long[][] used;
  private long[] clusterTotal;
  private boolean stale = true;

  public QuotaLedger(QuotaTree tree) {
    this.tree = tree;
    this.calculator = new RuntimeQuotaCalculator(tree);
    this.pending = new long[tree.size()][tree.resourceCount()];
    this.used = new long[tree.size()][tree.resourceCount()];
    this.clusterTotal = new long[tree.resourceCount()];
  }

  public QuotaTree tree() {
    return tree;
  }

  /**
   * Sets the cluster's allocatable. The root shares it less what the system and default quotas use
   * and less the totals of the trees of their own.
   */
  public void setClusterTotal(ResourceVector total) {
    long[] next = tree.toArray(total);
    if (!Arrays.equals(next, clusterTotal)) {
      clusterTotal = next;
      stale = true;
    }
  }

  /** Counts a waiting unit's request towards the leaf's demand. */
  public void addPending(String leaf, ResourceVector amount) {
    record(leaf, amount, 1, Book.PENDING);
  }

  public void removePending(String leaf, ResourceVector amount) {
    record(leaf, amount, -1, Book.PENDING);
  }

  /** Counts an admitted or running unit's request as used by the leaf and its ancestors. */
  public void addUsed(String leaf, ResourceVector amount) {
    record(leaf, amount, 1, Book.USED);
  }

  public void removeUsed(String leaf, ResourceVector amount) {
    record(leaf, amount, -1, Book.USED);
  }

  /** Moves an admitted unit's request from pending to used; demand and runtime are unchanged. */
  public void admit(String leaf, ResourceVector amount) {
    int q = leafIndex(leaf);
    long[] delta = nonNegative(leaf, amount);
    requireRecorded(Book.PENDING, q, delta);
    apply(Book.PENDING, q, delta, -1);
    apply(Book.USED, q, delta, 1);
  }

  /** Recalculates requests and runtime quotas now, if anything changed since the last time. */
  public void recompute() {
    if (stale) {
      calculator.calculate(clusterTotal, pending, used);
      stale = false;
    }
  }

  public ResourceVector runtime(String quota) {
    return calculated(quota, calculator.runtime);
  }

  /** Child request raised to min for quotas that do not lend. */
  public ResourceVector request(String quota) {
    return calculated(quota, calculator.request);
  }

  /** Request capped at max: what the quota asks of its parent. */
  public ResourceVector limitedRequest(String quota) {
    return calculated(quota, calculator.limitedRequest);
  }

  /** Pending plus used for a leaf; the sum of the children's limited requests otherwise. */
  public ResourceVector childRequest(String quota) {
    return calculated(quota, calculator.childRequest);
  }

  public ResourceVector used(String quota) {
    return computed(quota, used);
  }

  public ResourceVector pending(String leaf) {
    int q = leafIndex(leaf);
    return governed(q, r -> pending[q][r]);
  }

  /** How much of the leaf's used exceeds its min, per governed resource (zero when within). */
  public ResourceVector borrowed(String leaf) {
    int q = leafIndex(leaf);
    return governed(q, r -> Math.max(0, used[q][r] - tree.min[q][r]));
  }

  /**
   * Whether {@code request} fits, at the leaf and at every ancestor up to its tree's root, within both
   * runtime and max once added to used. The request is expected to be counted as pending already,
   * so that the runtime reflects it.
   */
  public AdmissionResult canAdmit(String leaf, ResourceVector request) {
    int q = leafIndex(leaf);
    return check(q, nonNegative(leaf, request), used);
  }

  /**
   * Whether {@code request} fits in what is idle now, runtime quotas aside: within max at the leaf
   * and every ancestor, and within what each ancestor's other children neither use nor keep (the
   * unused min of a quota that does not lend), up to the cluster's total at the root. The
   * runtime split shares quota by demand, so a unit larger than its leaf's share never fits it
   * while its siblings have work waiting, however idle the cluster is; this is the room such a
   * unit may borrow, to be reclaimed from it like any borrowed quota.
   */
  public boolean fitsIdle(String leaf, ResourceVector amount) {
    recompute();
    long[] request = nonNegative(leaf, amount);
    int below = -1;
    for (int q = leafIndex(leaf); q >= 0; below = q, q = tree.up(q)) {
      for (int r = 0; r < request.length; r++) {
        if (request[r] > 0 && used[q][r] + request[r] > idleLimit(q, below, r)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * What quota {@code q} may hold of resource {@code r} by idle room: its max (the default tree's
   * total at the root, at most its tree's total at the root of a tree of its own), less the unused
   * min its children other than {@code below} keep.
   */
  private long idleLimit(int q, int below, int r) {
    long limit = q == QuotaTree.ROOT_INDEX
        ? calculator.runtime[q][r]
        : tree.governs[q][r] ? tree.max[q][r] : Long.MAX_VALUE;
    if (tree.rootsTree(q)) {
      limit = Math.min(limit, tree.treeTotal[q][r]);
    }
    for (int child : tree.children(q)) {
      if (child != below && !tree.lends(child)) {
        limit -= Math.max(0, tree.min[child][r] - used[child][r]);
      }
    }
    return limit;
  }

  /** The admission check against given used amounts, for what-if questions such as reclaim. */
  AdmissionResult check(int leaf, long[] request, long[][] usedByQuota) {
    recompute();
    for (int q = leaf; q >= 0; q = tree.up(q)) {
      for (int r = 0; r < request.length; r++) {
        if (request[r] > 0 && tree.governs[q][r]) {
          long limit = Math.min(calculator.runtime[q][r], tree.max[q][r]);
          long available = limit - usedByQuota[q][r];
          if (request[r] > available) {
            return AdmissionResult.blocked(tree.name(q), tree.resource(r), request[r], available);
          }
        }
      }
    }
    return AdmissionResult.ADMISSIBLE;
  }

  /**
   * A copy of the used amounts to ask "would it fit once these units are gone and those added?"
   * without touching the ledger; the runtime quota stays as it is now.
   */
  public UsedScenario scenario() {
    return new UsedScenario(usedCopy());
  }

  /** Used amounts changed by hypothetical releases and admissions. See {@link #scenario}. */
  public final class UsedScenario {
    private final long[][] usedByQuota;

    private UsedScenario(long[][] usedByQuota) {
      this.usedByQuota = usedByQuota;
    }

    /** The unit's request no longer counts as used by its leaf and the leaf's ancestors. */
    public void release(String leaf, ResourceVector amount) {
      addUpTree(usedByQuota, leafIndex(leaf), nonNegative(leaf, amount), -1);
    }

    public void add(String leaf, ResourceVector amount) {
      addUpTree(usedByQuota, leafIndex(leaf), nonNegative(leaf, amount), 1);
    }

    /** {@link QuotaLedger#canAdmit} against the scenario's used amounts. */
    public AdmissionResult canAdmit(String leaf, ResourceVector request) {
      int q = leafIndex(leaf);
      return check(q, nonNegative(leaf, request), usedByQuota);
    }
  }

  long[][] usedCopy() {
    long[][] copy = new long[used.length][];
    for (int q = 0; q < used.length; q++) {
      copy[q] = used[q].clone();
    }
    return copy;
  }

  long runtimeAt(int q, int r) {
    recompute();
    return calculator.runtime[q][r];
  }

  int leafIndex(String leaf) {
    int q = tree.indexOf(leaf);
    if (!tree.isLeaf(q)) {
      throw new IllegalArgumentException(
          "quota \"" + leaf + "\" is a parent quota; only leaf quotas hold units");
    }
    return q;
  }

  long[] nonNegative(String leaf, ResourceVector amount) {
    if (amount.hasNegative()) {
      throw new IllegalArgumentException(
          "negative amount " + amount + " for quota \"" + leaf + "\"");
    }
    return tree.toArray(amount);
  }

  private enum Book {
    PENDING,
    USED
  }

  private long[][] amounts(Book book) {
    return book == Book.PENDING ? pending : used;
  }

  private void record(String leaf, ResourceVector amount, int sign, Book book) {
    int q = leafIndex(leaf);
    long[] delta = nonNegative(leaf, amount);
    if (sign < 0) {
      requireRecorded(book, q, delta);
    }
    apply(book, q, delta, sign);
    stale |= Arrays.stream(delta).anyMatch(a -> a != 0);
  }

  /** Pending stays on the leaf; used is also added to every ancestor. */
  private void apply(Book book, int q, long[] delta, int sign) {
    if (book == Book.USED) {
      addUpTree(used, q, delta, sign);
    } else {
      for (int r = 0; r < delta.length; r++) {
        pending[q][r] += sign * delta[r];
      }
    }
  }

  /** Adds {@code sign * delta} to the rows of a leaf and its ancestors up to its tree's root. */
  void addUpTree(long[][] rows, int leaf, long[] delta, int sign) {
    for (int q = leaf; q >= 0; q = tree.up(q)) {
      for (int r = 0; r < delta.length; r++) {
        rows[q][r] += sign * delta[r];
      }
    }
  }

  /** Refuses to remove more than was recorded: that would hide double counting. */
  private void requireRecorded(Book book, int q, long[] delta) {
    long[] recorded = amounts(book)[q];
    for (int r = 0; r < delta.length; r++) {
      if (delta[r] > recorded[r]) {
        throw new IllegalStateException(
            "cannot remove "
                + delta[r]
                + " of "
                + tree.resource(r)
                + " from the "
                + book.name().toLowerCase(Locale.ROOT)
                + " amount of quota \""
                + tree.name(q)
                + "\": only "
                + recorded[r]
                + " recorded");
      }
    }
  }

  /** One of the calculator's figures, recalculated first if anything changed. */
  private ResourceVector calculated(String quota, long[][] rows) {
    recompute();
    return computed(quota, rows);
  }

  private ResourceVector computed(String quota, long[][] rows) {
    int q = tree.indexOf(quota);
    return governed(q, r -> rows[q][r]);
  }

  private ResourceVector governed(int q, IntToLongFunction amountOf) {
    TreeMap<String, Long> out = new TreeMap<>();
    for (int r = 0; r < tree.resourceCount(); r++) {
      if (tree.governs[q][r]) {
        out.put(tree.resource(r), amountOf.applyAsLong(r));
      }
    }
    return ResourceVector.of(out);
  }
}
