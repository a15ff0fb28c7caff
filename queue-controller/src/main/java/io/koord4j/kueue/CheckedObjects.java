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
import java.util.function.Function;

/**
 * The objects a gang-feasibility check answers for: Kueue's Workloads ({@link #kueueWorkloads}),
 * or koord4j's own QueueUnits whose Queue names the check. Each is read as a workload, so that
 * one {@link DecisionPass} decides them all.
 */
public abstract class CheckedObjects<T extends HasMetadata> {
  private final String description;
  private final Function<SharedInformers, SharedIndexInformer<T>> informer;
  private final boolean kueueWorkloads;

  /**
   * @param description for logs, e.g. "Kueue workloads"
   * @param informer the one informer of the checked kind, from the process's shared informers
   * @param kueueWorkloads whether these are Kueue's workloads, whose quota Kueue reserved and which
   *     Kueue admits only while someone marks their checks Active
   */
  protected CheckedObjects(
      String description, Function<SharedInformers, SharedIndexInformer<T>> informer, boolean kueueWorkloads) {
    this.description = description;
    this.informer = informer;
    this.kueueWorkloads = kueueWorkloads;
  }

  public static CheckedObjects<GenericKubernetesResource> kueueWorkloads() {
    return new KueueWorkloads();
  }

  public final String description() {
    return description;
  }

  public final SharedIndexInformer<T> informer(SharedInformers informers) {
    return informer.apply(informers);
  }

  /**
   * Whether the check also needs room in the ElasticQuota the pods are charged to: false when
   * koord4j's own queues reserved that quota already.
   */
  public final boolean checksQuota() {
    return kueueWorkloads;
  }

  /**
   * Whether this controller sets the checks' Active condition, which tells Kueue that someone
   * answers for its workloads: only the controller that does.
   */
  public final boolean marksChecksActive() {
    return kueueWorkloads;
  }

  /** The object as a workload that waits on, or passed, one of the checks named {@code ourChecks}. */
  public abstract Optional<WaitingWorkload> waiting(T object, Set<String> ourChecks);

  /** Stores our new entries on {@code current}; a conflict or a vanished object is for the next pass. */
  public abstract void write(KubernetesClient client, T current, List<AdmissionCheckState> checks, Instant now);
}
