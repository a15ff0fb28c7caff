package io.koord4j.manager.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Kubernetes label selector matching: every matchLabels entry and every matchExpressions rule must hold. */
public final class LabelSelectors {
  private static final ObjectMapper JSON = new ObjectMapper();

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
   * A selector given as JSON in a configuration.
   *
   * @param where the configuration and field, for the error message
   * @throws IllegalArgumentException when it is missing, not a selector, or has an operator other
   *     than In, NotIn, Exists or DoesNotExist
   */
  public static LabelSelector parse(JsonNode value, String where) {
    if (value == null || !value.isObject()) {
      throw new IllegalArgumentException(where + " is required: matchLabels and/or matchExpressions");
    }
    LabelSelector selector;
    try {
      selector = JSON.treeToValue(value, LabelSelector.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + " is not a label selector: " + e.getOriginalMessage());
    }
    List<LabelSelectorRequirement> expressions =
        selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
    for (int i = 0; i < expressions.size(); i++) {
      String operator = expressions.get(i).getOperator();
      if (!List.of("In", "NotIn", "Exists", "DoesNotExist").contains(operator)) {
        throw new IllegalArgumentException(
            where + ".matchExpressions[" + i + "].operator must be In, NotIn, Exists or DoesNotExist, not " + operator);
      }
    }
    return selector;
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
