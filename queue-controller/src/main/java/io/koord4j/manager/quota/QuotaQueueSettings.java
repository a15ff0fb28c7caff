package io.koord4j.manager.quota;

import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueuePolicy;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The queue settings an ElasticQuota carries for the Queue of its name, as koord-queue reads
 * them: the label {@code koord-queue/queue-policy} (a policy name) and the annotation {@code
 * koord-queue/priority-threshold} (older quotas spell both {@code kube-queue/}); and koord4j's own
 * annotation {@code koord4j.io/backfill}. A setting the quota does not carry leaves the Queue's own
 * as it is, so a Queue written by hand keeps its policy.
 *
 * @param policy the policy to set, or null
 * @param annotations the Queue annotations to set, by their current key
 */
public record QuotaQueueSettings(String policy, Map<String, String> annotations) {
  private static final Set<String> POLICIES =
      Set.of(QueuePolicy.PRIORITY, QueuePolicy.BLOCK, QueuePolicy.FIFO, QueuePolicy.INTELLIGENT);
  private static final List<String> COPIED_ANNOTATIONS = List.of(WellKnown.PRIORITY_THRESHOLD, WellKnown.BACKFILL);

  public QuotaQueueSettings {
    annotations = Map.copyOf(annotations);
  }

  /** What the quota says; an unknown policy name is ignored, as koord-queue ignores it. */
  public static QuotaQueueSettings of(ElasticQuota quota) {
    String policy = WellKnown.readQueueKey(quota.getMetadata().getLabels(), WellKnown.QUEUE_POLICY_LABEL);
    Map<String, String> annotations = new HashMap<>();
    for (String key : COPIED_ANNOTATIONS) {
      String value = WellKnown.readQueueKey(quota.getMetadata().getAnnotations(), key);
      if (value != null) {
        annotations.put(key, value);
      }
    }
    return new QuotaQueueSettings(policy != null && POLICIES.contains(policy) ? policy : null, annotations);
  }

  /** Whether the Queue already says what the quota says. */
  public boolean appliedTo(Queue queue) {
    String current = queue.getSpec() == null ? null : queue.getSpec().getQueuePolicy();
    Map<String, String> queueAnnotations =
        Objects.requireNonNullElse(queue.getMetadata().getAnnotations(), Map.of());
    return (policy == null || policy.equals(current))
        && annotations.entrySet().stream().allMatch(e -> e.getValue().equals(queueAnnotations.get(e.getKey())));
  }

  /** The Queue with the quota's settings written into it. */
  public Queue applyTo(Queue queue) {
    if (policy != null) {
      if (queue.getSpec() == null) {
        queue.setSpec(new QueueSpec());
      }
      queue.getSpec().setQueuePolicy(policy);
    }
    if (!annotations.isEmpty()) {
      Map<String, String> merged =
          new HashMap<>(Objects.requireNonNullElse(queue.getMetadata().getAnnotations(), Map.of()));
      merged.putAll(annotations);
      queue.getMetadata().setAnnotations(merged);
    }
    return queue;
  }
}
