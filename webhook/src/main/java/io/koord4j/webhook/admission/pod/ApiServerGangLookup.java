package io.koord4j.webhook.admission.pod;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.gang.PodGroup;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the PodGroup on every call; an unreadable one counts as absent, so the pod is left as is. */
public final class ApiServerGangLookup implements GangLookup {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServerGangLookup.class);

  private final KubernetesClient client;

  public ApiServerGangLookup(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public OptionalInt minMember(String namespace, String podGroup) {
    try {
      PodGroup group = client.resources(PodGroup.class).inNamespace(namespace).withName(podGroup).get();
      return group == null || group.getSpec() == null || group.getSpec().getMinMember() == null
          ? OptionalInt.empty()
          : OptionalInt.of(group.getSpec().getMinMember());
    } catch (KubernetesClientException e) {
      LOG.debug("cannot read PodGroup {}/{}", namespace, podGroup, e);
      return OptionalInt.empty();
    }
  }
}
