package io.koord4j.quota;

import static io.koord4j.quota.RuntimeQuotaTest.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuotaTreeTest {

  private static final ResourceVector CPU_AND_GPU = ResourceVector.of("cpu", 100, "gpu", 8);

  private static List<String> violations(QuotaSpec... specs) {
    return QuotaTree.violations(List.of(specs));
  }

  @Test
  void buildsTheShapeUnderTheImplicitRoot() {
    QuotaTree tree =
        QuotaTree.of(
            List.of(
                QuotaSpec.group("org", "", cpu(100), CPU_AND_GPU),
                QuotaSpec.leaf("team-b", "org", cpu(40), cpu(100)),
                QuotaSpec.leaf("team-a", "org", cpu(60), CPU_AND_GPU)));

    assertThat(tree.parentOf("org")).isEqualTo(QuotaTree.ROOT);
    assertThat(tree.parentOf(QuotaTree.ROOT)).isNull();
    assertThat(tree.childrenOf("org")).containsExactly("team-a", "team-b");
    assertThat(tree.isLeaf("team-a")).isTrue();
    assertThat(tree.isLeaf("org")).isFalse();
    assertThat(tree.isLeaf(QuotaTree.ROOT)).isFalse();
    assertThat(tree.resourceNames()).containsExactly("cpu", "gpu");
    assertThat(tree.spec("team-b").sharedWeight()).as("defaults to max").isEqualTo(cpu(100));
  }

  @Test
  void rejectsAnUnknownParent() {
    assertThat(violations(QuotaSpec.leaf("a", "nope", cpu(1), cpu(1))))
        .containsExactly("quota \"a\": parent \"nope\" does not exist");
  }

  @Test
  void rejectsAParentThatIsNotMarkedIsParent() {
    assertThat(
            violations(
                QuotaSpec.leaf("p", "", cpu(10), cpu(10)),
                QuotaSpec.leaf("a", "p", cpu(1), cpu(1))))
        .containsExactly(
            "quota \"a\": parent \"p\" is not a parent quota (is-parent is not \"true\")");
  }

  @Test
  void rejectsACycleNamingEveryQuotaOnIt() {
    assertThat(
            violations(
                QuotaSpec.group("a", "b", cpu(0), cpu(1)),
                QuotaSpec.group("b", "a", cpu(0), cpu(1))))
        .containsExactly(
            "quota \"a\": its parent chain loops back to it (a -> b -> a)",
            "quota \"b\": its parent chain loops back to it (b -> a -> b)");
  }

  @Test
  void rejectsALongLoopCountingItsQuotasOnEachOfThem() {
    List<QuotaSpec> loop = new ArrayList<>(chain(1_000));
    loop.set(0, QuotaSpec.group("c1", "c1000", cpu(0), cpu(10)));
    loop.set(999, QuotaSpec.group("c1000", "c999", cpu(0), cpu(10)));

    assertThat(QuotaTree.violations(loop))
        .hasSize(1_000)
        .contains("quota \"c1\": its parent chain loops back to it (through 1000 quotas)");
  }

  @Test
  void aChainFiveThousandDeepIsRefusedWhereItPassesTheDepthLimitWithoutOverflowingTheStack() {
    assertThatThrownBy(() -> QuotaTree.of(chain(5_000)))
        .isInstanceOf(InvalidQuotaTreeException.class)
        .hasMessage(
            "invalid quota tree: quota \"c65\": it lies deeper than the 64 levels a quota tree may"
                + " have below the root");
  }

  @Test
  void aChainAtTheDepthLimitIsATreeWhoseDeepestLeafAdmitsAndChargesEveryAncestor() {
    QuotaLedger ledger = new QuotaLedger(QuotaTree.of(chain(QuotaTree.MAX_DEPTH)));
    ledger.setClusterTotal(cpu(10));
    ledger.addPending("c64", cpu(4));

    assertThat(ledger.tree().parentOf("c64")).isEqualTo("c63");
    assertThat(ledger.canAdmit("c64", cpu(4)).admissible()).isTrue();
    ledger.admit("c64", cpu(4));
    assertThat(ledger.used("c1")).isEqualTo(cpu(4));
  }

  /** Quotas c1 to c{length}, each under the one before, c1 under the root, the last a leaf. */
  private static List<QuotaSpec> chain(int length) {
    List<QuotaSpec> chain = new ArrayList<>(length);
    for (int i = 1; i <= length; i++) {
      String parent = i == 1 ? "" : "c" + (i - 1);
      chain.add(
          i == length
              ? QuotaSpec.leaf("c" + i, parent, cpu(0), cpu(10))
              : QuotaSpec.group("c" + i, parent, cpu(0), cpu(10)));
    }
    return chain;
  }

  @Test
  void rejectsChildrenWhoseMinsSumAboveTheParentsMin() {
    assertThat(
            violations(
                QuotaSpec.group("p", "", cpu(10), cpu(100)),
                QuotaSpec.leaf("a", "p", cpu(6), cpu(100)),
                QuotaSpec.leaf("b", "p", cpu(5), cpu(100))))
        .containsExactly("quota \"p\": its children's min cpu sums to 11, above its own min (10)");
  }

  @Test
  void rejectsAChildMaxNamingAResourceItsParentDoesNotGovern() {
    assertThat(
            violations(
                QuotaSpec.group("p", "", cpu(10), cpu(100)),
                QuotaSpec.leaf("a", "p", cpu(0), CPU_AND_GPU)))
        .containsExactly("quota \"a\": max names gpu, which the max of its parent \"p\" does not");
  }

  @Test
  void rejectsBadAmounts() {
    assertThat(
            violations(
                QuotaSpec.leaf("a", "", cpu(5), cpu(4)),
                QuotaSpec.leaf("b", "", ResourceVector.of("gpu", 1), cpu(4)),
                QuotaSpec.leaf("c", "", cpu(-1), cpu(4))))
        .containsExactly(
            "quota \"a\": min cpu (5) exceeds max (4)",
            "quota \"b\": min names gpu, which max does not",
            "quota \"c\": min cpu is negative (-1)");
  }

  @Test
  void rejectsDuplicateAndReservedNames() {
    assertThat(
            violations(
                QuotaSpec.leaf("a", "", cpu(1), cpu(1)),
                QuotaSpec.leaf("a", "", cpu(1), cpu(1)),
                QuotaSpec.group(QuotaTree.ROOT, "", cpu(1), cpu(1))))
        .containsExactly(
            "quota \"a\": the name is used by more than one quota",
            "quota \"koordinator-root-quota\": the name is reserved for the implicit root quota");
  }

  @Test
  void violationsNameTheFieldAtFaultAndFormatAmounts() {
    List<QuotaViolation> violations =
        QuotaTree.violations(
            List.of(
                QuotaSpec.group("p", "", cpu(10_000), cpu(100_000)),
                QuotaSpec.leaf("a", "p", cpu(12_000), ResourceVector.of("cpu", 100_000, "gpu", 8)),
                QuotaSpec.leaf("b", "nope", cpu(0), cpu(1))),
            (resource, amount) -> amount / 1000 + " cores");

    assertThat(violations)
        .containsExactly(
            new QuotaViolation("a", QuotaViolation.Field.MAX, "gpu",
                "max names gpu, which the max of its parent \"p\" does not"),
            new QuotaViolation("b", QuotaViolation.Field.PARENT, "",
                "parent \"nope\" does not exist"),
            new QuotaViolation("p", QuotaViolation.Field.MIN, "cpu",
                "its children's min cpu sums to 12 cores, above its own min (10 cores)"));
  }

  @Test
  void ofThrowsWithEveryViolationInTheMessage() {
    assertThatThrownBy(
            () ->
                QuotaTree.of(
                    List.of(
                        QuotaSpec.leaf("a", "x", cpu(1), cpu(1)),
                        QuotaSpec.leaf("b", "", cpu(2), cpu(1)))))
        .isInstanceOf(InvalidQuotaTreeException.class)
        .hasMessage(
            "invalid quota tree: quota \"a\": parent \"x\" does not exist; "
                + "quota \"b\": min cpu (2) exceeds max (1)")
        .satisfies(e -> assertThat(((InvalidQuotaTreeException) e).violations()).hasSize(2));
  }
}
