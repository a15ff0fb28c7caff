package io.koord4j.manager.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.manager.support.KubeObjects;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the owner of a job the queue cannot read (its adapter named a bad field) why the job
 * stays pending: a condition {@value #CONDITION} False with reason {@value #REASON} in the job's
 * {@code status.conditions}, and a Warning event, both carrying the adapter's message. Written
 * once per distinct message, so that reconciling the same bad job again writes nothing. Once the
 * owner fixes the job, the condition goes: the job no longer waits for its owner but for its quota.
 *
 * <p>The condition is best effort: a kind whose status has no conditions list (the API server
 * prunes it) keeps the event only.
 */
final class InvalidJobs {
  private InvalidJobs() {}

  private static final Logger LOG = LoggerFactory.getLogger(InvalidJobs.class);
  static final String CONDITION = "Queued";
  static final String REASON = "InvalidJobSpec";

  static <T extends HasMetadata> void record(
      KubernetesClient client, T job, Class<T> type, String message, Instant now) {
    ObjectNode tree = Serialization.jsonMapper().valueToTree(job);
    ObjectNode status = tree.with("status");
    ArrayNode conditions =
        status.get("conditions") instanceof ArrayNode list ? list : status.putArray("conditions");
    int index = indexOfCondition(conditions);
    if (index >= 0) {
      if (message.equals(conditions.get(index).path("message").asText())) {
        return;
      }
      conditions.remove(index);
    }
    conditions
        .addObject()
        .put("type", CONDITION)
        .put("status", "False")
        .put("reason", REASON)
        .put("message", message)
        .put("lastTransitionTime", now.toString())
        .put("lastUpdateTime", now.toString());
    LOG.warn(
        "{} {}/{} stays pending: {}",
        job.getKind(), job.getMetadata().getNamespace(), job.getMetadata().getName(), message);
    KubeObjects.event(client, job, "Warning", REASON, message, now);
    try {
      client.resource(Serialization.jsonMapper().convertValue(tree, type)).patchStatus();
    } catch (KubernetesClientException e) {
      LOG.debug("cannot write the {} condition of {}", CONDITION, job.getMetadata().getName(), e);
    }
  }

  /**
   * Removes the condition this class wrote, if the job still has it. A JSON patch that first tests
   * the entry, so that a condition list the job's operator changed meanwhile is left alone until
   * the next reconcile.
   */
  static void clear(KubernetesClient client, HasMetadata job) {
    JsonNode conditions = conditionsOf(job);
    int index = indexOfCondition(conditions);
    if (index < 0 || !REASON.equals(conditions.get(index).path("reason").asText())) {
      return;
    }
    String path = "/status/conditions/" + index;
    ArrayNode patch = Serialization.jsonMapper().createArrayNode();
    patch.addObject().put("op", "test").put("path", path + "/reason").put("value", REASON);
    patch.addObject().put("op", "remove").put("path", path);
    try {
      client.resource(job).subresource("status").patch(PatchContext.of(PatchType.JSON), patch.toString());
      LOG.info(
          "{} {}/{} reads well again and is queued",
          job.getKind(), job.getMetadata().getNamespace(), job.getMetadata().getName());
    } catch (KubernetesClientException e) {
      LOG.debug("cannot remove the {} condition of {}", CONDITION, job.getMetadata().getName(), e);
    }
  }

  /**
   * The job's {@code status.conditions}. Every reconcile asks, so only the status is turned into
   * JSON, not the whole job with its pod templates.
   */
  static JsonNode conditionsOf(HasMetadata job) {
    Object status =
        job instanceof Job batch
            ? batch.getStatus()
            : job instanceof GenericKubernetesResource generic
                ? generic.getAdditionalProperties().get("status")
                : Serialization.jsonMapper().valueToTree(job).path("status");
    JsonNode tree = Serialization.jsonMapper().valueToTree(status);
    return tree == null ? MissingNode.getInstance() : tree.path("conditions");
  }

  /** Index of the {@value #CONDITION} condition, or -1. */
  private static int indexOfCondition(JsonNode conditions) {
    for (int i = 0; i < conditions.size(); i++) {
      if (CONDITION.equals(conditions.get(i).path("type").asText())) {
        return i;
      }
    }
    return -1;
  }
}
