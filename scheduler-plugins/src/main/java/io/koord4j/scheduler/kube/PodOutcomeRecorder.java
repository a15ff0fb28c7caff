package io.koord4j.scheduler.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.events.Events;
import io.koord4j.scheduler.Scheduler;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells people what happened to a pod, as kube-scheduler does: a {@code PodScheduled=False}
 * condition (reason Unschedulable) and a FailedScheduling event when it cannot be placed, a
 * Scheduled event when it is bound. A failure repeated with the same message writes nothing, so
 * retries do not flood the API server.
 *
 * <p>The writes run on an executor of their own, so that neither the scheduling loop nor the
 * binding threads wait for them: like kube-scheduler's event broadcaster, telling is best effort
 * and never slows placement.
 *
 * @param writer runs the API calls
 */
public record PodOutcomeRecorder(KubernetesClient client, String schedulerName, Executor writer)
    implements Scheduler.Outcomes {
  private static final Logger LOG = LoggerFactory.getLogger(PodOutcomeRecorder.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String POD_SCHEDULED = "PodScheduled";
  static final String UNSCHEDULABLE = "Unschedulable";

  @Override
  public void unschedulable(Pod pod, String message) {
    if (!alreadySays(pod, message)) {
      writer.execute(() -> recordUnschedulable(pod, message));
    }
  }

  @Override
  public void scheduled(Pod pod, String nodeName) {
    writer.execute(() -> recordScheduled(pod, nodeName));
  }

  private void recordUnschedulable(Pod pod, String message) {
    Map<String, Object> condition =
        Map.of(
            "type", POD_SCHEDULED,
            "status", "False",
            "reason", UNSCHEDULABLE,
            "message", message,
            "lastTransitionTime", Instant.now().toString());
    try {
      client
          .pods()
          .inNamespace(pod.getMetadata().getNamespace())
          .withName(pod.getMetadata().getName())
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.STRATEGIC_MERGE),
              JSON.writeValueAsString(Map.of("status", Map.of("conditions", List.of(condition)))));
      event(pod, "Warning", "FailedScheduling", message);
    } catch (KubernetesClientException | JsonProcessingException e) {
      LOG.warn("cannot record why {} is unschedulable: {}", nameOf(pod), e.getMessage());
    }
  }

  private void recordScheduled(Pod pod, String nodeName) {
    try {
      event(pod, "Normal", "Scheduled", "Successfully assigned " + nameOf(pod) + " to " + nodeName);
    } catch (KubernetesClientException e) {
      LOG.warn("cannot record that {} is scheduled: {}", nameOf(pod), e.getMessage());
    }
  }

  /** The pod already carries this failure, so there is nothing new to say. */
  static boolean alreadySays(Pod pod, String message) {
    if (pod.getStatus() == null) {
      return false;
    }
    return pod.getStatus().getConditions().stream()
        .anyMatch(
            (PodCondition c) ->
                POD_SCHEDULED.equals(c.getType())
                    && "False".equals(c.getStatus())
                    && UNSCHEDULABLE.equals(c.getReason())
                    && message.equals(c.getMessage()));
  }

  private void event(Pod pod, String type, String reason, String message) {
    Event event =
        Events.about(pod, type, reason, message, Instant.now())
            .withNewSource()
            .withComponent(schedulerName)
            .endSource()
            .build();
    client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(event).create();
  }

  private static String nameOf(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
