package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSetUpdate;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadPodSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The gang annotations Kueue adds to the pods when it starts the job, so that the scheduler
 * binds all of them or none: every pod set joins one gang named after the workload, whose
 * min-available is the workload's pod count. A pod set that already names its gang (gang
 * annotation or PodGroup label) keeps it: Kueue refuses updates that overwrite template values.
 * When the gang must stay in one topology domain, every pod set also gets its node selector.
 */
final class GangPodSetUpdates {
  private GangPodSetUpdates() {}

  /** @param nodeSelector empty unless the gang must stay in one topology domain */
  static List<PodSetUpdate> of(Workload workload, int pods, Map<String, String> nodeSelector) {
    Map<String, String> gang = Map.of(
        WellKnown.GANG_NAME, workload.getMetadata().getName(),
        WellKnown.GANG_MIN_AVAILABLE, Integer.toString(pods));
    return workload.getSpec().getPodSets().stream()
        .filter(podSet -> !namesItsGang(podSet) || !nodeSelector.isEmpty())
        .map(podSet -> {
          PodSetUpdate update = new PodSetUpdate();
          update.setName(podSet.getName());
          if (!namesItsGang(podSet)) {
            update.setAnnotations(new TreeMap<>(gang));
          }
          if (!nodeSelector.isEmpty()) {
            update.setNodeSelector(new TreeMap<>(nodeSelector));
          }
          return update;
        })
        .toList();
  }

  private static boolean namesItsGang(WorkloadPodSet podSet) {
    ObjectMeta meta = podSet.getTemplate() == null ? null : podSet.getTemplate().getMetadata();
    if (meta == null) {
      return false;
    }
    return (meta.getAnnotations() != null && meta.getAnnotations().containsKey(WellKnown.GANG_NAME))
        || (meta.getLabels() != null && meta.getLabels().containsKey(WellKnown.POD_GROUP_LABEL));
  }
}
