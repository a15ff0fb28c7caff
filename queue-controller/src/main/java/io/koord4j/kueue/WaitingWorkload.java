package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadStatus;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A workload this controller must answer for: Kueue reserved its quota, it is neither finished
 * nor evicted, and it carries at least one of our checks.
 *
 * @param ourChecks its entries whose AdmissionCheck has koord4j's controllerName, as Kueue or we
 *     last wrote them
 */
public record WaitingWorkload(Workload workload, List<AdmissionCheckState> ourChecks) {

  public static Optional<WaitingWorkload> of(Workload workload, Set<String> ourCheckNames) {
    WorkloadStatus status = workload.getStatus();
    if (status == null || status.getAdmissionChecks() == null
        || !isTrue(status, WorkloadStatus.QUOTA_RESERVED)
        || isTrue(status, WorkloadStatus.FINISHED)
        || isTrue(status, WorkloadStatus.EVICTED)) {
      return Optional.empty();
    }
    List<AdmissionCheckState> ours = status.getAdmissionChecks().stream()
        .filter(check -> ourCheckNames.contains(check.getName()))
        .toList();
    return ours.isEmpty() ? Optional.empty() : Optional.of(new WaitingWorkload(workload, ours));
  }

  String namespace() {
    return workload.getMetadata().getNamespace();
  }

  String name() {
    return workload.getMetadata().getName();
  }

  /** Every one of our checks is settled Ready: the gang was let through and may be starting. */
  boolean isReady() {
    return ourChecks.stream().allMatch(check -> AdmissionCheckState.READY.equals(check.getState()));
  }

  private static boolean isTrue(WorkloadStatus status, String type) {
    List<Condition> conditions = status.getConditions();
    return conditions != null && conditions.stream()
        .anyMatch(condition -> type.equals(condition.getType()) && "True".equals(condition.getStatus()));
  }
}
