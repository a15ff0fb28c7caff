package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.kueue.PodSetAssignment;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadPodSet;
import io.koord4j.device.PodSetRequest;
import io.koord4j.quota.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All pods of a workload as one gang.
 *
 * @param podSets one request per pod set with pods left to place
 * @param nodeSelectors the pod sets' nodeSelectors; a node is eligible when it matches any of
 *     them, or any node when a pod set has none (affinity and taints are not considered)
 * @param requestPerPod by pod set name, what one of its pods requests of its quota
 */
record WorkloadGang(
    List<PodSetRequest> podSets, List<Map<String, String>> nodeSelectors, Map<String, ResourceVector> requestPerPod) {

  /**
   * @throws IllegalArgumentException naming the pod set and field when its pods could never be
   *     scheduled as written
   */
  static WorkloadGang of(Workload workload) {
    String key = workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
    List<WorkloadPodSet> podSets = workload.getSpec() == null || workload.getSpec().getPodSets() == null
        ? List.of() : workload.getSpec().getPodSets();
    List<PodSetRequest> requests = new ArrayList<>();
    List<Map<String, String>> selectors = new ArrayList<>();
    Map<String, ResourceVector> requestPerPod = new HashMap<>();
    for (int i = 0; i < podSets.size(); i++) {
      WorkloadPodSet podSet = podSets.get(i);
      PodTemplateSpec template = podSet.getTemplate();
      PodSpec spec = template == null || template.getSpec() == null ? new PodSpec() : template.getSpec();
      PodDemand demand = PodDemand.of(
          key + " pod set " + podSet.getName(),
          spec,
          template == null || template.getMetadata() == null ? null : template.getMetadata().getAnnotations(),
          "spec.podSets[" + i + "].template.spec");
      requests.add(new PodSetRequest(
          podSet.getName(), admittedCount(workload, podSet), demand.milliCpu(), demand.memoryBytes(), demand.gpu()));
      requestPerPod.put(podSet.getName(), demand.requests());
      selectors.add(spec.getNodeSelector() == null ? Map.of() : Map.copyOf(spec.getNodeSelector()));
    }
    return new WorkloadGang(List.copyOf(requests), List.copyOf(selectors), Map.copyOf(requestPerPod));
  }

  int pods() {
    return podSets.stream().mapToInt(PodSetRequest::count).sum();
  }

  /** What all its pods request of their quota. */
  ResourceVector request() {
    ResourceVector total = ResourceVector.EMPTY;
    for (PodSetRequest podSet : podSets) {
      for (int pod = 0; pod < podSet.count(); pod++) {
        total = total.add(requestPerPod.get(podSet.name()));
      }
    }
    return total;
  }

  boolean eligible(Map<String, String> nodeLabels) {
    return nodeSelectors.isEmpty()
        || nodeSelectors.stream().anyMatch(selector -> nodeLabels.entrySet().containsAll(selector.entrySet()));
  }

  /** The pods still to place once {@code placed} of them are bound, taken from the first pod sets. */
  WorkloadGang without(int placed) {
    List<PodSetRequest> left = new ArrayList<>();
    int toSkip = placed;
    for (PodSetRequest podSet : podSets) {
      int skipped = Math.min(toSkip, podSet.count());
      toSkip -= skipped;
      if (podSet.count() > skipped) {
        left.add(new PodSetRequest(podSet.name(), podSet.count() - skipped, podSet.milliCpu(),
            podSet.memoryBytes(), podSet.gpu()));
      }
    }
    return new WorkloadGang(List.copyOf(left), nodeSelectors, requestPerPod);
  }

  /** With partial admission Kueue may reserve quota for fewer pods than the spec asks. */
  private static int admittedCount(Workload workload, WorkloadPodSet podSet) {
    int count = podSet.getCount() == null ? 1 : podSet.getCount();
    if (workload.getStatus() == null || workload.getStatus().getAdmission() == null
        || workload.getStatus().getAdmission().getPodSetAssignments() == null) {
      return count;
    }
    return workload.getStatus().getAdmission().getPodSetAssignments().stream()
        .filter(assignment -> podSet.getName().equals(assignment.getName()) && assignment.getCount() != null)
        .map(PodSetAssignment::getCount)
        .findFirst()
        .orElse(count);
  }
}
