package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/**
 * Label selectors as the scheduler reads them in pod affinity terms and topology spread
 * constraints: a missing selector selects nothing, an empty one everything.
 */
public final class LabelSelectors {
  private LabelSelectors() {}

  /** Loops rather than streams: this runs for every pod a term is held against. */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    Map<String, String> matchLabels = selector.getMatchLabels();
    if (matchLabels != null) {
      for (Map.Entry<String, String> required : matchLabels.entrySet()) {
        if (!required.getValue().equals(labels.get(required.getKey()))) {
          return false;
        }
      }
    }
    List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
    if (expressions != null) {
      for (LabelSelectorRequirement requirement : expressions) {
        String value = labels.get(requirement.getKey());
        if (!matchesSetOperator(requirement.getOperator(), requirement.getValues(), value)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The operators label selectors share with node selectors: In, NotIn, Exists, DoesNotExist;
   * any other matches nothing.
   *
   * @param value the label's value, null when the label is missing
   */
  static boolean matchesSetOperator(String operator, List<String> values, String value) {
    return switch (operator) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }
}
