package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.scheduler.plugins.DefaultBinder;
import java.time.Duration;

/**
 * Binds a pod by creating a v1 Binding (the pods/binding subresource), as kube-scheduler does.
 * Retries what may pass on a second try (timeouts, throttling, server errors); a refusal such as
 * 409 (already bound) or 404 (pod gone) fails at once.
 */
public final class ApiBinder implements DefaultBinder.PodBinder {

  private static final int ATTEMPTS = 3;
  private static final Duration FIRST_RETRY = Duration.ofMillis(200);

  private final KubernetesClient client;

  public ApiBinder(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void bind(Pod pod, String nodeName) {
    Binding binding =
        new BindingBuilder()
            .withNewMetadata()
            .withName(pod.getMetadata().getName())
            .withNamespace(pod.getMetadata().getNamespace())
            .withUid(pod.getMetadata().getUid())
            .endMetadata()
            .withNewTarget()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(nodeName)
            .endTarget()
            .build();
    for (int attempt = 1; ; attempt++) {
      try {
        client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(binding).create();
        return;
      } catch (KubernetesClientException e) {
        if (attempt == ATTEMPTS || !retriable(e)) {
          throw e;
        }
        sleep(FIRST_RETRY.multipliedBy(1L << (attempt - 1)));
      }
    }
  }

  private static boolean retriable(KubernetesClientException e) {
    int code = e.getCode();
    return code == 0 || code == 429 || code >= 500;
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted while retrying a binding");
    }
  }
}
