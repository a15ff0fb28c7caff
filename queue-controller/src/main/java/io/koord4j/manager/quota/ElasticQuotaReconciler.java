package io.koord4j.manager.quota;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaStatus;
import io.koord4j.manager.admission.AdmissionSnapshot.QuotaFigures;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.AdmissionSnapshot;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.manager.support.WritePacing;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Publishes the admission core's figures on each ElasticQuota: {@code status.used} and the
 * runtime and request annotations (JSON ResourceLists), and gives each quota a Queue of the same
 * name in {@value Queue#DEFAULT_NAMESPACE}, as koord-queue does, with the queue policy and priority
 * threshold the quota carries (see {@link QuotaQueueSettings}).
 *
 * <p>It reads from the informers, not the API server: the figures change with every admission,
 * so each change is one patch per part that changed (annotations, status), at most once a
 * {@link WritePacing#INTERVAL} per quota, and the Queue is read from its informer.
 *
 * @param queues the Queues the manager's informer holds, by {@code namespace/name}
 */
public record ElasticQuotaReconciler(
    KubernetesClient client, AdmissionSnapshots snapshots, Function<String, Queue> queues, WritePacing pacing) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Each ElasticQuota's figures in a snapshot, by the object's {@code namespace/name}. */
  public static Map<String, ?> figures(AdmissionSnapshot snapshot) {
    return snapshot.quotas().entrySet().stream()
        .collect(
            Collectors.toMap(e -> e.getValue().namespace() + "/" + e.getKey(), Map.Entry::getValue));
  }

  /** @return when to publish again: the figures changed within the interval of the last write */
  public Optional<Duration> reconcile(ElasticQuota quota) throws JsonProcessingException {
    ensureQueue(quota);
    QuotaFigures figures = snapshots.latest().quotas().get(quota.getMetadata().getName());
    if (figures == null) {
      return Optional.empty();
    }
    Map<String, String> annotations =
        Map.of(
            WellKnown.QUOTA_RUNTIME, json(figures.runtime()),
            WellKnown.QUOTA_REQUEST, json(figures.request()));
    Map<String, String> current =
        Objects.requireNonNullElse(quota.getMetadata().getAnnotations(), Map.of());
    boolean annotationsChanged =
        !annotations.entrySet().stream().allMatch(e -> e.getValue().equals(current.get(e.getKey())));
    ElasticQuotaStatus status = quota.getStatus();
    boolean usedChanged =
        status == null
            || status.getUsed() == null
            || !ResourceQuantities.toVector(status.getUsed()).equals(figures.used());
    if (!annotationsChanged && !usedChanged) {
      return Optional.empty();
    }
    Optional<Duration> wait = pacing.waitBeforeWriting(Cache.metaNamespaceKeyFunc(quota));
    if (wait.isPresent()) {
      return wait;
    }
    if (annotationsChanged) {
      // A merge patch sets these two and leaves the quota's other annotations as they are; the
      // informer's copy names the quota, so nothing is read first.
      client.resource(quota).patch(
          PatchContext.of(PatchType.JSON_MERGE),
          JSON.writeValueAsString(Map.of("metadata", Map.of("annotations", annotations))));
    }
    if (usedChanged) {
      ElasticQuotaStatus fresh = new ElasticQuotaStatus();
      fresh.setUsed(ResourceQuantities.toQuantities(figures.used()));
      KubeObjects.replaceStatus(client, quota, fresh);
    }
    return Optional.empty();
  }

  /** Creates the quota's Queue, or brings the queue settings the quota carries to it. */
  private void ensureQueue(ElasticQuota quota) {
    String name = quota.getMetadata().getName();
    String namespace = Queue.DEFAULT_NAMESPACE;
    QuotaQueueSettings settings = QuotaQueueSettings.of(quota);
    Queue existing = queues.apply(namespace + "/" + name);
    if (existing != null) {
      if (!settings.appliedTo(existing)) {
        client.resources(Queue.class).inNamespace(namespace).withName(name).edit(settings::applyTo);
      }
      return;
    }
    if (client.namespaces().withName(namespace).get() == null) {
      KubeObjects.createIfAbsent(
          client, new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
    }
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    queue.setSpec(new QueueSpec());
    KubeObjects.createIfAbsent(client, settings.applyTo(queue));
  }

  private static String json(ResourceVector vector) throws JsonProcessingException {
    Map<String, String> list = new java.util.TreeMap<>();
    ResourceQuantities.toQuantities(vector).forEach((k, v) -> list.put(k, v.toString()));
    return JSON.writeValueAsString(list);
  }
}
