package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.device.Device;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.manager.jobs.JobIntegrations;
import io.koord4j.manager.jobs.JobReconciler;
import io.koord4j.manager.noderesource.BatchResourceReconciler;
import io.koord4j.manager.support.SharedInformers;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The leading manager lists and watches each kind it reads once, however many parts read it. */
class ManagerWatchesIT extends InProcessManagerBase {

  @Test
  void oneWatchPerKindTheManagerNeeds() throws InterruptedException {
    List<String> watched = InProcessManager.manager().watchedKinds();

    assertThat(watched).as("watches opened").doesNotHaveDuplicates();
    assertThat(watched).as("kinds watched").containsExactlyInAnyOrderElementsOf(neededKinds());
  }

  /**
   * What the admission loop, the gang check and the reconcilers read: the queueing kinds, nodes,
   * pods and devices, the check's parameters, the gangs' PodGroups, the jobs' PriorityClasses, Kueue's AdmissionChecks (the check answers
   * QueueUnits here, not Kueue's Workloads), ElasticQuotaProfiles when served, NodeMetrics, ConfigMaps and NodeSLOs when batch
   * resources are on and the cluster serves them, and every job kind the cluster serves.
   */
  private static List<String> neededKinds() {
    List<String> kinds = new ArrayList<>();
    Stream.of(
            QueueUnit.class,
            ElasticQuota.class,
            Queue.class,
            Node.class,
            Pod.class,
            Device.class,
            GangFeasibilityParameters.class,
            PodGroup.class,
            PriorityClass.class)
        .map(HasMetadata::getFullResourceName)
        .forEach(kinds::add);
    kinds.add(AdmissionCheck.CONTEXT.getPlural() + "." + AdmissionCheck.CONTEXT.getGroup());
    if (Boolean.parseBoolean(System.getenv(BatchResourceReconciler.SWITCH))
        && client.supports(NodeMetric.class)) {
      // The opt-in batch-resource controller reads NodeMetrics and the colocation ConfigMap too.
      kinds.add(HasMetadata.getFullResourceName(NodeMetric.class));
      kinds.add(HasMetadata.getFullResourceName(ConfigMap.class));
    }
    if (client.supports(ElasticQuotaProfile.class)) {
      // The profile controller keeps the roots of the trees ElasticQuotaProfiles ask for.
      kinds.add(HasMetadata.getFullResourceName(ElasticQuotaProfile.class));
    }
    if (Boolean.parseBoolean(System.getenv(BatchResourceReconciler.SWITCH)) && client.supports(NodeSLO.class)) {
      // So does the NodeSLO controller that comes with them.
      kinds.add(HasMetadata.getFullResourceName(NodeSLO.class));
    }
    try (SharedInformers unstarted = new SharedInformers(client)) {
      for (JobReconciler<?> jobs : JobIntegrations.builtIn(Clock.systemUTC(), unstarted)) {
        if (client.supports(jobs.jobType())) {
          kinds.add(HasMetadata.getFullResourceName(jobs.jobType()));
        }
      }
    }
    return kinds;
  }
}
