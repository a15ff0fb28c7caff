package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.events.Events;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Evicts through the Eviction API (so PodDisruptionBudgets hold) and records a Warning event. */
public record KubePodEvictor(KubernetesClient client, String nodeName, Clock clock)
    implements PodEvictor {
  private static final Logger LOG = LoggerFactory.getLogger(KubePodEvictor.class);
  private static final int EVENT_ATTEMPTS = 3;

  @Override
  public boolean evict(Pod pod, String reason, String message) {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    boolean evicted;
    try {
      evicted = client.pods().inNamespace(namespace).withName(name).evict();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot evict pod {}/{}: {}", namespace, name, e.getMessage());
      return false;
    }
    if (!evicted) {
      LOG.info("eviction of pod {}/{} refused (disruption budget)", namespace, name);
      return false;
    }
    LOG.info("evicted pod {}/{}: {}", namespace, name, message);
    record(pod, reason, message);
    return true;
  }

  private void record(Pod pod, String reason, String message) {
    // Named here, not by the API server, so that a retry after a lost answer cannot record it twice.
    Event event =
        Events.about(pod, "Warning", reason, message, clock.instant())
            .editMetadata()
            .withGenerateName(null)
            .withName(pod.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
            .endMetadata()
            .withNewSource().withComponent("koordlet").withHost(nodeName).endSource()
            .build();
    for (int attempt = 1; ; attempt++) {
      try {
        client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(event).create();
        return;
      } catch (KubernetesClientException e) {
        // The eviction is done; its event is worth a retry when the API server was only unreachable.
        boolean unreachable = e.getCode() == 0 || e.getCode() >= 500;
        if (!unreachable || attempt == EVENT_ATTEMPTS) {
          LOG.warn("cannot record the eviction event of pod {}", pod.getMetadata().getName(), e);
          return;
        }
        pause(attempt);
      }
    }
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(200L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
