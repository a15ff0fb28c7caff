package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Kubernetes label selector matching: every matchLabels entry and every matchExpressions rule must hold. */
public final class LabelSelectors {
  private LabelSelectors() {}

  /** Whether the labels match; a null selector matches nothing and an empty one everything, as in Kubernetes. */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    Map<String, String> matchLabels = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    List<LabelSelectorRequirement> expressions =
        selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
    return labels.entrySet().containsAll(matchLabels.entrySet())
        && expressions.stream().allMatch(rule -> matches(rule, labels));
  }

  /**
   * Rejects operators Kubernetes does not know, naming where the selector was found.
   *
   * @throws IllegalArgumentException when an operator is not In, NotIn, Exists or DoesNotExist
   */
  public static void validate(String where, LabelSelector selector) {
    List<LabelSelectorRequirement> expressions =
        selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
    for (int i = 0; i < expressions.size(); i++) {
      String operator = expressions.get(i).getOperator();
      if (!List.of("In", "NotIn", "Exists", "DoesNotExist").contains(operator)) {
        throw new IllegalArgumentException(
            where + ".matchExpressions[" + i + "].operator must be In, NotIn, Exists or DoesNotExist, not " + operator);
      }
    }
  }

  private static boolean matches(LabelSelectorRequirement rule, Map<String, String> labels) {
    String value = labels.get(rule.getKey());
    List<String> values = rule.getValues() == null ? List.of() : rule.getValues();
    return switch (rule.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }
}
