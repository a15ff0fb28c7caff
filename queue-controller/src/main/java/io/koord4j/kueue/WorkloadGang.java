package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.kueue.PodSetAssignment;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadPodSet;
import io.koord4j.device.PodSetRequest;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.plugins.NodeEligibility;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * All pods of a workload as one gang.
 *
 * @param podSets one request per pod set with pods left to place
 * @param podSpecs the pod sets' pod specs; a node is eligible when the scheduler's node-only
 *     filters ({@link NodeEligibility}: cordon, taints, nodeSelector, required node affinity) let
 *     the pods of any pod set onto it
 * @param requestPerPod by pod set name, what one of its pods requests of its quota
 */
record WorkloadGang(
    List<PodSetRequest> podSets, List<PodSpec> podSpecs, Map<String, ResourceVector> requestPerPod) {

  /**
   * @throws IllegalArgumentException naming the pod set and field when its pods could never be
   *     scheduled as written
   */
  static WorkloadGang of(Workload workload) {
    String key = workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
    List<WorkloadPodSet> podSets = workload.getSpec() == null || workload.getSpec().getPodSets() == null
        ? List.of() : workload.getSpec().getPodSets();
    List<PodSetRequest> requests = new ArrayList<>();
    List<PodSpec> specs = new ArrayList<>();
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
      specs.add(spec);
    }
    return new WorkloadGang(List.copyOf(requests), List.copyOf(specs), Map.copyOf(requestPerPod));
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

  boolean eligible(Node node) {
    return refusal(node).isEmpty();
  }

  /** Why no pod set's pods may go onto the node, by the first pod set's refusal; empty when one's may. */
  Optional<String> refusal(Node node) {
    Optional<String> first = Optional.empty();
    for (PodSpec spec : podSpecs.isEmpty() ? List.of(new PodSpec()) : podSpecs) {
      Optional<String> refusal = NodeEligibility.refusal(spec, node);
      if (refusal.isEmpty()) {
        return refusal;
      }
      first = first.isEmpty() ? refusal : first;
    }
    return first;
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
    return new WorkloadGang(List.copyOf(left), podSpecs, requestPerPod);
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
