package io.koord4j.quota;

import java.util.Arrays;

/**
 * Computes request, limited request and runtime quota of every quota in a tree, resource by
 * resource, following Koordinator's elastic quota rules.
 *
 * <p>Requests flow leaf to root: a leaf's child request is its pending plus used amount; an inner
 * quota's child request is the sum of its children's limited requests; {@code request} raises the
 * child request to {@code min} for quotas that do not lend; {@code limitedRequest} caps it at
 * {@code max}. Runtime flows root to leaf: the root holds the cluster total, and every parent
 * shares its runtime among the children that govern the resource (see {@link #share}).
 *
 * <p>A quota that roots a tree of its own ({@link QuotaTree#rootsTree}) takes no part in the
 * root's split: its runtime comes from its tree's total alone (see {@link #ownTreeRuntime}), its
 * requests stop at it, and the root keeps the cluster total less every such tree's total.
 *
 * <p>A full pass is linear in the number of quotas times resources, plus a sort per split among
 * hungry siblings; arrays are reused across passes.
 */
final class RuntimeQuotaCalculator {

  private final QuotaTree tree;
  final long[][] childRequest;
  final long[][] request;
  final long[][] limitedRequest;
  final long[][] runtime;

  RuntimeQuotaCalculator(QuotaTree tree) {
    this.tree = tree;
    int n = tree.size();
    int resources = tree.resourceCount();
    childRequest = new long[n][resources];
    request = new long[n][resources];
    limitedRequest = new long[n][resources];
    runtime = new long[n][resources];
  }

  /**
   * @param clusterTotal what the root shares, by resource index
   * @param pending pending amounts by quota and resource (leaves only)
   * @param used used amounts by quota and resource (a leaf's own for leaves)
   */
  void calculate(long[] clusterTotal, long[][] pending, long[][] used) {
    propagateRequests(pending, used);
    long[] defaultTreeTotal = defaultTreeTotal(clusterTotal);
    System.arraycopy(defaultTreeTotal, 0, runtime[QuotaTree.ROOT_INDEX], 0, defaultTreeTotal.length);
    long[] shared = shareableAtRoot(defaultTreeTotal, used);
    for (int q = 0; q < tree.size(); q++) { // pre-order: a parent's runtime is final first
      if (tree.children(q).length > 0) {
        for (int r = 0; r < tree.resourceCount(); r++) {
          if (tree.governs[q][r]) { // children only govern resources their parent governs
            share(q, r, q == QuotaTree.ROOT_INDEX ? shared[r] : runtime[q][r]);
          }
        }
      }
    }
  }

  /** The cluster total less the totals of the trees of their own, never below zero. */
  private long[] defaultTreeTotal(long[] clusterTotal) {
    long[] total = clusterTotal.clone();
    for (int c : tree.children(QuotaTree.ROOT_INDEX)) {
      if (tree.rootsTree(c)) {
        for (int r = 0; r < total.length; r++) {
          total[r] = Math.max(0, total[r] - tree.treeTotal[c][r]);
        }
      }
    }
    return total;
  }

  /** The default tree's total less what the system and default quotas use, never below zero. */
  private long[] shareableAtRoot(long[] clusterTotal, long[][] used) {
    long[] shared = clusterTotal.clone();
    for (int c : tree.children(QuotaTree.ROOT_INDEX)) {
      if (tree.outsideShare(c)) {
        for (int r = 0; r < shared.length; r++) {
          shared[r] = Math.max(0, shared[r] - used[c][r]);
        }
      }
    }
    return shared;
  }

  private void propagateRequests(long[][] pending, long[][] used) {
    for (long[] row : childRequest) {
      Arrays.fill(row, 0);
    }
    for (int q = tree.size() - 1; q >= 0; q--) { // reverse pre-order: children first
      boolean hasChildren = tree.children(q).length > 0;
      for (int r = 0; r < tree.resourceCount(); r++) {
        if (!hasChildren) {
          childRequest[q][r] = pending[q][r] + used[q][r];
        }
        request[q][r] =
            tree.lends(q) ? childRequest[q][r] : Math.max(childRequest[q][r], tree.min[q][r]);
        limitedRequest[q][r] =
            tree.governs[q][r] ? Math.min(request[q][r], tree.max[q][r]) : request[q][r];
        if (tree.up(q) >= 0) {
          childRequest[tree.up(q)][r] += limitedRequest[q][r];
        }
      }
    }
  }

  /**
   * The runtime of a quota that roots a tree of its own, as if it were the only child of a root
   * holding its tree's total: its request, or {@code max(min, guaranteed)} (capped at max) if it
   * asks for less and does not lend, never more than the total.
   */
  private long ownTreeRuntime(int c, int r) {
    long total = tree.treeTotal[c][r];
    long base = Math.min(Math.max(Math.min(tree.min[c][r], total), tree.guaranteed[c][r]), tree.max[c][r]);
    long wanted = limitedRequest[c][r];
    return Math.min(total, wanted > base || tree.lends(c) ? wanted : base);
  }

  /**
   * Shares {@code total} of resource {@code r} (parent {@code p}'s runtime, or less at the root)
   * among the children that govern it. The system and default quotas take no part: their runtime
   * is their max; nor do the roots of trees of their own.
   *
   * <p>Each child starts at {@code base = max(min, guaranteed)} (capped at max) when it asks for
   * more, and is then hungry; otherwise it gets its request if it lends, or {@code base} if it
   * does not. When the children's mins add up to more than the parent's runtime, the mins are
   * first scaled down to {@code min * total / sumMin} with an exact-sum largest-remainder split.
   * What is left is split among hungry children by shared weight (exact sum, ties by name), no
   * child above its limited request; what a satisfied child does not take is split again until
   * nothing is left or nobody is hungry. Anything left after that stays unassigned with the
   * parent.
   */
  private void share(int p, int r, long total) {
    int[] kids = tree.children(p);
    long[] mins = new long[kids.length];
    long sumMin = 0;
    for (int i = 0; i < kids.length; i++) {
      if (tree.outsideShare(kids[i])) {
        runtime[kids[i]][r] = tree.max[kids[i]][r];
      } else if (tree.rootsTree(kids[i])) {
        runtime[kids[i]][r] = ownTreeRuntime(kids[i], r);
      } else if (tree.governs[kids[i]][r]) {
        mins[i] = tree.min[kids[i]][r];
        sumMin = mins[i] > Long.MAX_VALUE - sumMin ? Long.MAX_VALUE : sumMin + mins[i];
      }
    }
    if (sumMin > total) {
      mins = ProportionalSplit.split(total, mins);
    }

    long[] hungryWeights = new long[kids.length];
    long remaining = total;
    long unmet = 0;
    boolean weightless = false;
    for (int i = 0; i < kids.length; i++) {
      int c = kids[i];
      if (!tree.governs[c][r] || tree.outsideShare(c) || tree.rootsTree(c)) {
        continue;
      }
      // Capped at max so that a guaranteed amount above max cannot lift runtime over max.
      long base = Math.min(Math.max(mins[i], tree.guaranteed[c][r]), tree.max[c][r]);
      long wanted = limitedRequest[c][r];
      if (wanted > base) {
        runtime[c][r] = base;
        hungryWeights[i] = tree.sharedWeight[c][r];
        unmet += wanted - base;
        weightless |= hungryWeights[i] == 0;
      } else {
        runtime[c][r] = tree.lends(c) ? wanted : base;
      }
      remaining -= runtime[c][r];
    }
    if (unmet <= remaining && !weightless) {
      // Enough for every hungry child: the rounds below would end with each at its request.
      for (int i = 0; i < kids.length; i++) {
        if (hungryWeights[i] > 0) {
          runtime[kids[i]][r] = limitedRequest[kids[i]][r];
        }
      }
      return;
    }

    while (remaining > 0) {
      long[] parts = ProportionalSplit.split(remaining, hungryWeights);
      remaining = 0; // all of it is handed out, unless no hungry child has weight
      for (int i = 0; i < kids.length; i++) {
        if (hungryWeights[i] == 0) {
          continue;
        }
        int c = kids[i];
        runtime[c][r] += parts[i];
        if (runtime[c][r] >= limitedRequest[c][r]) {
          remaining += runtime[c][r] - limitedRequest[c][r];
          runtime[c][r] = limitedRequest[c][r];
          hungryWeights[i] = 0;
        }
      }
    }
  }
}
