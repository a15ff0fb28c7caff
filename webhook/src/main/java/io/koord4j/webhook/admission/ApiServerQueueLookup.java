package io.koord4j.webhook.admission;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists koord-queue Queues in the job's namespace on every call. Good enough for a webhook that
 * runs alone; the manager passes a lookup over its informer cache instead.
 */
public final class ApiServerQueueLookup implements QueueLookup {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServerQueueLookup.class);

  private final KubernetesClient client;

  public ApiServerQueueLookup(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Set<String> queuesFor(String namespace) {
    try {
      return client
          .genericKubernetesResources("scheduling.x-k8s.io/v1alpha1", "Queue")
          .inNamespace(namespace)
          .list()
          .getItems()
          .stream()
          .map(GenericKubernetesResource::getMetadata)
          .map(metadata -> metadata.getName())
          .collect(Collectors.toSet());
    } catch (KubernetesClientException e) {
      LOG.debug("cannot list queues in {}", namespace, e);
      return Set.of();
    }
  }
}
