package io.koord4j.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QuotaTreeViewTest {

  @Test
  void theTreeListsParentsBeforeTheirChildrenWithWhatEachBorrowsAndLends() {
    List<QuotaTreeView.QuotaNode> tree = QuotaTreeView.of(List.of(
        Fixtures.quota("nlp", "research", false, "4", "10", "6", "6"),
        Fixtures.quota("vision", "research", false, "4", "10", "2", "1"),
        Fixtures.quota("research", null, true, "8", "16", "8", "7")));

    assertThat(tree).extracting(QuotaTreeView.QuotaNode::name, QuotaTreeView.QuotaNode::depth)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("research", 0),
            org.assertj.core.groups.Tuple.tuple("nlp", 1),
            org.assertj.core.groups.Tuple.tuple("vision", 1));
    QuotaTreeView.ResourceFigures nlp = tree.get(1).resources().get(0);
    assertThat(nlp).isEqualTo(new QuotaTreeView.ResourceFigures("cpu", "4", "10", "6", "6", "2", "0", 60));
    QuotaTreeView.ResourceFigures vision = tree.get(2).resources().get(0);
    assertThat(vision.lent()).isEqualTo("2");
    assertThat(vision.borrowed()).isEqualTo("0");

    String table = QuotaTreeView.table(tree);
    assertThat(table).contains("└─ nlp").contains("[############........] 60%");
  }

  @Test
  void aRuntimeTheManagerHasNotPublishedShowsAsUnknown() {
    List<QuotaTreeView.QuotaNode> tree = QuotaTreeView.of(List.of(Fixtures.quota("solo", null, false, "2", "4", null, "0")));

    assertThat(tree.get(0).resources().get(0).runtime()).isEqualTo("?");
  }

  @Test
  void barsAreCappedAtTheirWidth() {
    assertThat(QuotaTreeView.bar(0)).isEqualTo("[....................] 0%");
    assertThat(QuotaTreeView.bar(150)).isEqualTo("[####################] 150%");
  }
}
