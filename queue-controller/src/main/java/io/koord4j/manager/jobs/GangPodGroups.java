package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.jobs.PodSetInfo;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.manager.support.SharedInformers;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Creates or applies gangs' PodGroups, skipping the write when the process's PodGroup informer
 * already holds the group as this job wants it. A queued job's group is applied as its unit is created, so the
 * resume that follows its admission costs the job's update alone; a group the informer has not
 * seen yet, or of another size or an older job of the same name, is applied again.
 */
final class GangPodGroups {
  private final SharedInformers informers;
  private final SharedIndexInformer<PodGroup> groups;
  /** Threads of {@link #ensureBeside}: one per reconcile waiting for it at most. */
  private final ExecutorService writes = Executors.newCachedThreadPool(DaemonThreads.numbered("pod-groups"));

  GangPodGroups(SharedInformers informers) {
    this.informers = informers;
    this.groups = informers.of(PodGroup.class);
  }

  /** Starts watching PodGroups, once for every job kind; until listed, every group is applied. */
  void watch() {
    informers.start(groups);
  }

  /**
   * {@link #ensure}s the job's PodGroup on another thread, so that the caller's own write goes
   * beside it; {@link #await} the result.
   */
  CompletableFuture<Void> ensureBeside(HasMetadata job, List<PodSetInfo> podSets, KubernetesClient client) {
    return Gangs.needsPodGroup(podSets)
        ? CompletableFuture.runAsync(() -> ensure(job, podSets, client), writes)
        : CompletableFuture.completedFuture(null);
  }

  /** Waits for a write {@link #ensureBeside} started, throwing what it threw. */
  void await(CompletableFuture<Void> group) {
    try {
      group.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Makes the job's PodGroup what its pod sets ask for, if it is a gang. */
  void ensure(HasMetadata job, List<PodSetInfo> podSets, KubernetesClient client) {
    if (!Gangs.needsPodGroup(podSets)) {
      return;
    }
    PodGroup desired = Gangs.podGroup(job, podSets);
    PodGroup known = groups.getStore().getByKey(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName());
    // Creating a group the informer has not seen costs the API server far less than an apply.
    if (known == null && KubeObjects.createIfAbsent(client, desired)) {
      return;
    }
    if (known == null || !sameGang(known, desired)) {
      // Applied, not only created: a job requeued at a new size needs its gang's new minMember.
      client.resource(desired).fieldManager(Gangs.FIELD_MANAGER).forceConflicts().serverSideApply();
    }
  }

  private static boolean sameGang(PodGroup known, PodGroup desired) {
    return known.getSpec() != null
        && Objects.equals(known.getSpec().getMinMember(), desired.getSpec().getMinMember())
        && ownerUids(known).equals(ownerUids(desired));
  }

  private static List<String> ownerUids(PodGroup group) {
    return group.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
  }
}
