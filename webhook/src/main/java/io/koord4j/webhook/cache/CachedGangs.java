package io.koord4j.webhook.cache;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.webhook.admission.WouldBlock;
import io.koord4j.webhook.admission.pod.GangLookup;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PodGroups from an informer cache. The manager creates a job's PodGroup just before it resumes
 * the job, so the first pods can arrive before the cache has the PodGroup: a miss is read once
 * from the API server. Only pods labelled with a PodGroup reach this lookup, so misses are rare.
 * An unreadable PodGroup counts as absent, and the pod is left as it is.
 */
record CachedGangs(Store<PodGroup> cache, KubernetesClient client) implements GangLookup {
  private static final Logger LOG = LoggerFactory.getLogger(CachedGangs.class);

  @Override
  public OptionalInt minMember(String namespace, String podGroup) {
    PodGroup group =
        Optional.ofNullable(cache.getByKey(Cache.namespaceKeyFunc(namespace, podGroup)))
            .orElseGet(() -> readFromServer(namespace, podGroup));
    return group == null || group.getSpec() == null || group.getSpec().getMinMember() == null
        ? OptionalInt.empty()
        : OptionalInt.of(group.getSpec().getMinMember());
  }

  private PodGroup readFromServer(String namespace, String podGroup) {
    WouldBlock.unlessBlockingAllowed();
    try {
      return client.resources(PodGroup.class).inNamespace(namespace).withName(podGroup).get();
    } catch (KubernetesClientException e) {
      LOG.debug("cannot read PodGroup {}/{}", namespace, podGroup, e);
      return null;
    }
  }
}
