package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueAdmissionCheck;
import io.koord4j.api.queue.QueueUnit;
import java.util.List;
import java.util.Map;

/** The AdmissionChecks a queue's unit must pass once its quota is reserved. Pure. */
public final class QueueChecks {
  private QueueChecks() {}

  /** The names of the queue's checks whose label selector matches the unit; null selects all. */
  public static List<String> required(Queue queue, QueueUnit unit) {
    List<QueueAdmissionCheck> checks = queue == null || queue.getSpec() == null
        ? null : queue.getSpec().getAdmissionChecks();
    Map<String, String> labels = unit.getMetadata().getLabels() == null ? Map.of() : unit.getMetadata().getLabels();
    return checks == null ? List.of() : checks.stream()
        .filter(check -> check.getName() != null && selects(check.getLabelSelector(), labels))
        .map(QueueAdmissionCheck::getName)
        .distinct()
        .toList();
  }

  static boolean selects(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    boolean labelsMatch = selector.getMatchLabels() == null
        || labels.entrySet().containsAll(selector.getMatchLabels().entrySet());
    return labelsMatch && (selector.getMatchExpressions() == null
        || selector.getMatchExpressions().stream().allMatch(requirement -> meets(requirement, labels)));
  }

  private static boolean meets(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }
}
