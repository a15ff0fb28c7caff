package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.manager.support.SharedInformers;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The objects a gang-feasibility check answers for: Kueue's Workloads ({@link #kueueWorkloads}),
 * or koord4j's own QueueUnits whose Queue names the check. Each is read as a workload, so that
 * one {@link DecisionPass} decides them all.
 */
public interface CheckedObjects<T extends HasMetadata> {
  /** For logs, e.g. "Kueue workloads". */
  String description();

  /** The one informer of the checked kind, from the process's shared informers. */
  SharedIndexInformer<T> informer(SharedInformers informers);

  /** The object as a workload that waits on, or passed, one of the checks named {@code ourChecks}. */
  Optional<WaitingWorkload> waiting(T object, Set<String> ourChecks);

  /**
   * Whether the check also needs room in the ElasticQuota the pods are charged to: false when
   * koord4j's own queues reserved that quota already.
   */
  boolean checksQuota();

  /**
   * Whether this controller sets the checks' Active condition, which tells Kueue that someone
   * answers for its workloads: only the controller that does.
   */
  boolean marksChecksActive();

  /** Stores our new entries on {@code current}; a conflict or a vanished object is for the next pass. */
  void write(KubernetesClient client, T current, List<AdmissionCheckState> checks, Instant now);

  static CheckedObjects<GenericKubernetesResource> kueueWorkloads() {
    return new KueueWorkloads();
  }
}
