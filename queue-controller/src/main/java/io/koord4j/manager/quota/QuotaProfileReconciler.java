package io.koord4j.manager.quota;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.manager.support.InformerReconciler;
import io.koord4j.manager.support.SharedInformers;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's ElasticQuotaProfile controller: keeps each profile's root quota ({@link
 * QuotaProfileRoot}) as nodes come, go or change, and puts back what someone else changes in it.
 * The root quota is written by server-side apply as this controller's own fields, so labels,
 * annotations and figures that others write on it stay theirs. Reads Nodes and ElasticQuotas
 * through the shared informers.
 */
public final class QuotaProfileReconciler implements AutoCloseable {
  public static final String NAME = "elasticquotaprofiles";
  private static final Logger LOG = LoggerFactory.getLogger(QuotaProfileReconciler.class);

  private final KubernetesClient client;
  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<ElasticQuota> quotas;
  private final InformerReconciler<ElasticQuotaProfile> profiles;

  private QuotaProfileReconciler(KubernetesClient client, SharedInformers informers) {
    this.client = client;
    this.nodes = informers.of(Node.class);
    this.quotas = informers.of(ElasticQuota.class);
    this.profiles = new InformerReconciler<>(NAME, informers, ElasticQuotaProfile.class, this::reconcile);
  }

  /** The controller, when the cluster serves ElasticQuotaProfiles. */
  public static Optional<QuotaProfileReconciler> forCluster(KubernetesClient client, SharedInformers informers) {
    if (!client.supports(ElasticQuotaProfile.class)) {
      LOG.info("ElasticQuotaProfile is not installed; profiles are not served until the manager restarts after it is");
      return Optional.empty();
    }
    return Optional.of(new QuotaProfileReconciler(client, informers));
  }

  /** Reconciles every profile, then all of them on a node's change and one when its root quota changes. */
  public void start() {
    profiles.follow(nodes, node -> profiles.triggerAll());
    profiles.follow(quotas, quota -> {
      String profile = quota.getMetadata().getLabels() == null ? null : quota.getMetadata().getLabels().get(WellKnown.QUOTA_PROFILE);
      if (profile != null) {
        profiles.trigger(quota.getMetadata().getNamespace() + "/" + profile);
      }
    });
    profiles.start();
  }

  @Override
  public void close() {
    profiles.close();
  }

  private void reconcile(ElasticQuotaProfile profile) {
    String namespace = profile.getMetadata().getNamespace();
    ElasticQuota current = profile.getSpec() == null || profile.getSpec().getQuotaName() == null ? null
        : quotas.getStore().getByKey(namespace + "/" + profile.getSpec().getQuotaName());
    ElasticQuota desired;
    try {
      desired = QuotaProfileRoot.desired(profile, nodes.getStore().list(), current);
    } catch (IllegalArgumentException e) {
      LOG.warn("{}; its root quota is left as it is", e.getMessage());
      return;
    }
    if (!QuotaProfileRoot.holds(current, desired)) {
      client.resource(desired).fieldManager(NAME).forceConflicts().serverSideApply();
      LOG.info("profile {}/{}: root quota {} is {}", namespace, profile.getMetadata().getName(),
          desired.getMetadata().getName(), desired.getSpec().getMin());
    }
  }
}
