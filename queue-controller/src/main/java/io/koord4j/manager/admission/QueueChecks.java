package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueAdmissionCheck;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.support.LabelSelectors;
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

  /** A check without a selector applies to every unit. */
  private static boolean selects(LabelSelector selector, Map<String, String> labels) {
    return selector == null || LabelSelectors.matches(selector, labels);
  }
}
