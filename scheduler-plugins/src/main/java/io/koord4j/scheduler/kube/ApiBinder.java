package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.scheduler.plugins.DefaultBinder;
import java.time.Duration;
import java.util.Objects;

/**
 * Binds a pod by creating a v1 Binding (the pods/binding subresource), as kube-scheduler does.
 * Retries what may pass on a second try (timeouts, throttling, server errors); a refusal such as
 * 404 (pod gone) fails at once.
 *
 * <p>A binding that timed out may have landed: its retry is then refused as a conflict (already
 * bound), and a last attempt that timed out says nothing. Either way the pod is read back, and a
 * pod bound to this very node counts as bound, so that its devices are not given back while it
 * runs on them.
 */
public final class ApiBinder implements DefaultBinder.PodBinder {

  private static final int ATTEMPTS = 3;
  private static final Duration FIRST_RETRY = Duration.ofMillis(200);

  /** The API server calls a binding makes. */
  interface BindingApi {
    void create(Binding binding);

    /** The pod as stored now, or null when it is gone. */
    Pod read(String namespace, String name);
  }

  private final BindingApi api;
  private final Duration firstRetry;

  public ApiBinder(KubernetesClient client) {
    this(
        new BindingApi() {
          @Override
          public void create(Binding binding) {
            client.bindings().inNamespace(binding.getMetadata().getNamespace()).resource(binding).create();
          }

          @Override
          public Pod read(String namespace, String name) {
            return client.pods().inNamespace(namespace).withName(name).get();
          }
        },
        FIRST_RETRY);
  }

  ApiBinder(BindingApi api, Duration firstRetry) {
    this.api = api;
    this.firstRetry = firstRetry;
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
        api.create(binding);
        return;
      } catch (KubernetesClientException e) {
        boolean retriable = retriable(e);
        if (attempt < ATTEMPTS && retriable) {
          sleep(firstRetry.multipliedBy(1L << (attempt - 1)));
          continue;
        }
        if ((retriable || e.getCode() == 409) && boundTo(pod, nodeName)) {
          return;
        }
        throw e;
      }
    }
  }

  /** Whether this pod (the same object, not a namesake) is stored as bound to the node. */
  private boolean boundTo(Pod pod, String nodeName) {
    try {
      Pod stored = api.read(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      return stored != null
          && Objects.equals(stored.getMetadata().getUid(), pod.getMetadata().getUid())
          && nodeName.equals(stored.getSpec().getNodeName());
    } catch (KubernetesClientException e) {
      return false;
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
