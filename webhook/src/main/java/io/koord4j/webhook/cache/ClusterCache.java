package io.koord4j.webhook.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.webhook.admission.QueueLookup;
import io.koord4j.webhook.admission.pod.GangLookup;
import io.koord4j.webhook.admission.pod.ProfileLookup;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the webhook's handlers look up (Queues, ElasticQuotas, PodGroups, ElasticQuotaProfiles),
 * each listed once and
 * then kept current by a watch, so that a review reads memory instead of asking the API server.
 * Every replica keeps its own: the webhook serves on every replica, while the manager's informers
 * run only on the leader.
 *
 * <p>{@link #start} returns once every cache holds its first list, so the server, started after
 * it, never answers from an empty cache. A cache still lags the API server by a moment; each
 * lookup says what it does when that moment could matter.
 */
public final class ClusterCache implements AutoCloseable {
  private final SharedIndexInformer<Queue> queueInformer;
  private final SharedIndexInformer<ElasticQuota> quotaInformer;
  private final SharedIndexInformer<PodGroup> gangInformer;
  private final SharedIndexInformer<ElasticQuotaProfile> profileInformer;
  private final CachedQueues queues;
  private final CachedQuotas quotas;
  private final CachedGangs gangs;

  /** The caches, not yet filled: lookups before {@link #start} fall back to the API server. */
  public ClusterCache(KubernetesClient client) {
    queueInformer = client.resources(Queue.class).inAnyNamespace().runnableInformer(0);
    quotaInformer = client.resources(ElasticQuota.class).inAnyNamespace().runnableInformer(0);
    gangInformer = client.resources(PodGroup.class).inAnyNamespace().runnableInformer(0);
    profileInformer = client.resources(ElasticQuotaProfile.class).inAnyNamespace().runnableInformer(0);
    queues = new CachedQueues(queueInformer.getIndexer(), client);
    quotas = new CachedQuotas(quotaInformer.getStore(), client);
    gangs = new CachedGangs(gangInformer.getStore(), client);
  }

  /**
   * Lists and watches every cached kind, returning once all hold their first list.
   *
   * @throws IllegalStateException when they are not filled within {@code timeout}, e.g. because
   *     a CRD is not installed; the caches are stopped
   */
  public void start(Duration timeout) {
    List<SharedIndexInformer<? extends HasMetadata>> informers = informers();
    try {
      CompletableFuture.allOf(
              informers.stream()
                  .map(informer -> informer.start().toCompletableFuture())
                  .toArray(CompletableFuture[]::new))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      close();
      throw new IllegalStateException(
          "the webhook cannot fill its caches of " + unsynced(informers) + " within " + timeout
              + " (are koord4j's CRDs installed?): " + (e.getCause() == null ? e : e.getCause()),
          e);
    } catch (InterruptedException e) {
      close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while filling the webhook's caches", e);
    }
  }

  public QueueLookup queues() {
    return queues;
  }

  public QuotaLookup quotas() {
    return quotas;
  }

  public GangLookup gangs() {
    return gangs;
  }

  /**
   * The profiles as last seen. A profile is created long before pods use its tree (its root quota,
   * which the tree's quotas hang under, is the manager's answer to it), so no miss is read again.
   */
  public ProfileLookup profiles() {
    return profileInformer.getStore()::list;
  }

  /** Runs {@code action} on the informer's thread whenever a profile is created or deleted. */
  public void whenProfilesComeOrGo(Runnable action) {
    profileInformer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(ElasticQuotaProfile profile) {
            action.run();
          }

          @Override
          public void onUpdate(ElasticQuotaProfile before, ElasticQuotaProfile profile) {}

          @Override
          public void onDelete(ElasticQuotaProfile profile, boolean finalStateUnknown) {
            action.run();
          }
        });
  }

  @Override
  public void close() {
    informers().forEach(SharedIndexInformer::stop);
  }

  private List<SharedIndexInformer<? extends HasMetadata>> informers() {
    return List.of(queueInformer, quotaInformer, gangInformer, profileInformer);
  }

  private static String unsynced(List<SharedIndexInformer<? extends HasMetadata>> informers) {
    return String.join(
        ", ",
        informers.stream()
            .filter(informer -> !informer.hasSynced())
            .map(informer -> HasMetadata.getFullResourceName(informer.getApiTypeClass()))
            .toList());
  }
}
