package io.koord4j.scheduler.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnerSelectorTest {

  private static final Map<String, String> POD = Map.of("app", "web", "tier", "front", "hash", "abc");

  @Test
  void aPodNothingSelectsIsNotSpreadByDefault() {
    assertThat(OwnerSelector.of(POD, List.of(Map.of("app", "db")), null)).isNull();
  }

  @Test
  void theServicesSelectingThePodAddTheirSelectors() {
    LabelSelector selector =
        OwnerSelector.of(POD, List.of(Map.of("app", "web"), Map.of("tier", "front"), Map.of("app", "db")), null);
    assertThat(selector.getMatchLabels()).isEqualTo(Map.of("app", "web", "tier", "front"));
    assertThat(selector.getMatchExpressions()).isEmpty();
  }

  @Test
  void theControllersSelectorIsAddedWhole() {
    var requirement = new LabelSelectorRequirement("hash", "In", List.of("abc"));
    LabelSelector selector =
        OwnerSelector.of(POD, List.of(Map.of("app", "web")),
            new LabelSelector(List.of(requirement), Map.of("tier", "front")));
    assertThat(selector.getMatchLabels()).isEqualTo(Map.of("app", "web", "tier", "front"));
    assertThat(selector.getMatchExpressions()).containsExactly(requirement);
  }
}
