package io.koord4j.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Invariants of the runtime split on random three-level trees (org, team, leaf), seeded by the
 * repetition number. Memory is in bytes, so weight times remainder overflows a long and the exact
 * 128-bit path of the split is exercised too.
 */
class RuntimeQuotaPropertyTest {

  private static final List<String> RESOURCES = List.of("cpu", "memory");
  private static final long CPU = 1_000;
  private static final long GIB = 1L << 30;

  @RepeatedTest(200)
  void runtimeSplitKeepsItsInvariants(RepetitionInfo repetition) {
    Random random = new Random(repetition.getCurrentRepetition());
    List<QuotaSpec> specs = new ArrayList<>();
    List<QuotaSpec> leaves = new ArrayList<>();
    QuotaSpec root = new QuotaSpec("", "", units(random, 600), null, null, null, true, true, null);
    for (QuotaSpec org : children(random, root, 1 + random.nextInt(4), true, false)) {
      specs.add(org);
      for (QuotaSpec team : children(random, org, 1 + random.nextInt(4), true, true)) {
        specs.add(team);
        List<QuotaSpec> teamLeaves = children(random, team, 1 + random.nextInt(5), false, true);
        specs.addAll(teamLeaves);
        leaves.addAll(teamLeaves);
      }
    }
    QuotaLedger ledger = new QuotaLedger(QuotaTree.of(specs));
    ledger.setClusterTotal(units(random, 400));
    for (QuotaSpec leaf : leaves) {
      if (random.nextInt(4) > 0) {
        ledger.addPending(leaf.name(), units(random, 150));
      }
      if (random.nextBoolean()) {
        ledger.addUsed(leaf.name(), units(random, 50));
      }
    }

    checkChildrenOf(ledger, QuotaTree.ROOT);
  }

  private static ResourceVector units(Random random, int bound) {
    return ResourceVector.of(
        "cpu", random.nextInt(bound) * CPU, "memory", random.nextInt(bound) * GIB);
  }

  /**
   * Children whose mins fit in the parent's min when {@code withinParentMin} (the tree rule below
   * the root); top-level quotas may together exceed the cluster, which forces scaled mins.
   */
  private static List<QuotaSpec> children(
      Random random, QuotaSpec parent, int count, boolean isParent, boolean withinParentMin) {
    List<QuotaSpec> out = new ArrayList<>();
    ResourceVector minLeft = parent.min();
    for (int i = 0; i < count; i++) {
      ResourceVector min =
          ResourceVector.of(
              "cpu", fraction(random, minLeft.get("cpu"), CPU),
              "memory", fraction(random, minLeft.get("memory"), GIB));
      if (withinParentMin) {
        minLeft = minLeft.subtract(min);
      }
      ResourceVector weight =
          random.nextInt(3) == 0
              ? ResourceVector.of("cpu", random.nextInt(5), "memory", random.nextInt(5))
              : null;
      String name = (parent.name().isEmpty() ? "q" : parent.name() + "-") + (char) ('a' + i);
      out.add(
          new QuotaSpec(
              name,
              parent.name(),
              min,
              min.add(units(random, 200)),
              weight,
              null,
              random.nextInt(4) > 0,
              isParent,
              null));
    }
    return out;
  }

  private static long fraction(Random random, long amount, long unit) {
    return random.nextLong(amount / unit + 1) * unit;
  }

  private static void checkChildrenOf(QuotaLedger ledger, String parent) {
    QuotaTree tree = ledger.tree();
    List<String> kids = tree.childrenOf(parent);
    for (String resource : RESOURCES) {
      long total = ledger.runtime(parent).get(resource);
      long sumMin = kids.stream().mapToLong(k -> tree.spec(k).min().get(resource)).sum();
      long sumRuntime = 0;
      boolean someoneHungry = false;
      for (String kid : kids) {
        QuotaSpec spec = tree.spec(kid);
        long runtime = ledger.runtime(kid).get(resource);
        long wanted = ledger.limitedRequest(kid).get(resource);
        long min = spec.min().get(resource);
        long entitled = sumMin > total ? scaledDown(min, total, sumMin) : min;
        String where = kid + " " + resource;
        assertThat(runtime)
            .as(where + ": runtime <= max")
            .isLessThanOrEqualTo(spec.max().get(resource));
        assertThat(runtime)
            .as(where + ": runtime >= min(limited request, scaled min)")
            .isGreaterThanOrEqualTo(Math.min(wanted, entitled));
        if (spec.allowLentResource()) {
          assertThat(runtime)
              .as(where + ": a lender gets no more than it asks")
              .isLessThanOrEqualTo(wanted);
        }
        someoneHungry |= runtime < wanted && spec.sharedWeight().get(resource) > 0;
        sumRuntime += runtime;
      }
      String where = parent + " " + resource;
      assertThat(sumRuntime).as(where + ": children within parent").isLessThanOrEqualTo(total);
      if (someoneHungry) {
        assertThat(sumRuntime)
            .as(where + ": all handed out while a child is hungry")
            .isEqualTo(total);
      }
    }
    kids.forEach(kid -> checkChildrenOf(ledger, kid));
  }

  private static long scaledDown(long min, long total, long sumMin) {
    return BigInteger.valueOf(min)
        .multiply(BigInteger.valueOf(total))
        .divide(BigInteger.valueOf(sumMin))
        .longValueExact();
  }
}
