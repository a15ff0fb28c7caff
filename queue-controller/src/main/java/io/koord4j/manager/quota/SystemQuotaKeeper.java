package io.koord4j.manager.quota;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.quota.kube.SystemQuotas;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Koordinator's root, system and default quotas in the cluster: creates those missing when
 * the manager starts to lead and again whenever one is deleted, so that work naming no quota
 * always has the default quota to be charged to.
 */
public final class SystemQuotaKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SystemQuotaKeeper.class);
  private static final long RETRY_SECONDS = 5;

  private final KubernetesClient client;
  private final SharedIndexInformer<ElasticQuota> informer;
  private final SharedInformers informers;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(runnable -> new Thread(runnable, "system-quotas"));
  private final ResourceEventHandler<ElasticQuota> handler =
      new ResourceEventHandler<>() {
        @Override
        public void onAdd(ElasticQuota quota) {}

        @Override
        public void onUpdate(ElasticQuota before, ElasticQuota quota) {}

        @Override
        public void onDelete(ElasticQuota quota, boolean finalStateUnknown) {
          if (SystemQuotas.isSystemQuota(quota.getMetadata().getName())) {
            ensureSoon(0);
          }
        }
      };

  public SystemQuotaKeeper(KubernetesClient client, SharedInformers informers) {
    this.client = client;
    this.informers = informers;
    this.informer = informers.of(ElasticQuota.class);
  }

  /** Creates the missing quotas once the informer holds every quota, then follows deletions. */
  public void start() {
    informer.addEventHandler(handler);
    informers.start(informer).join();
    ensureSoon(0);
  }

  @Override
  public void close() {
    informer.removeEventHandler(handler);
    thread.shutdownNow();
  }

  private void ensureSoon(long delaySeconds) {
    if (!thread.isShutdown()) {
      thread.schedule(this::ensure, delaySeconds, TimeUnit.SECONDS);
    }
  }

  private void ensure() {
    try {
      List<ElasticQuota> missing = SystemQuotas.missing(informer.getStore().list());
      if (missing.isEmpty()) {
        return;
      }
      KubeObjects.createIfAbsent(
          client,
          new NamespaceBuilder().withNewMetadata().withName(SystemQuotas.NAMESPACE).endMetadata().build());
      missing.forEach(quota -> KubeObjects.createIfAbsent(client, quota));
      LOG.info("created {}", missing.stream().map(q -> q.getMetadata().getName()).toList());
    } catch (RuntimeException e) {
      LOG.warn("could not create the system quotas, retrying in {} s", RETRY_SECONDS, e);
      ensureSoon(RETRY_SECONDS);
    }
  }
}
