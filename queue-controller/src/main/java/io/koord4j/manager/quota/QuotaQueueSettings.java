package io.koord4j.manager.quota;

import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueuePolicy;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The queue settings an ElasticQuota carries for the Queue of its name, as koord-queue reads
 * them: the label {@code koord-queue/queue-policy} (a policy name) and the annotation {@code
 * koord-queue/priority-threshold} (older quotas spell both {@code kube-queue/}). A setting the quota
 * does not carry leaves the Queue's own as it is, so a Queue written by hand keeps its policy.
 *
 * @param policy the policy to set, or null
 * @param priorityThreshold the threshold to set, or null
 */
public record QuotaQueueSettings(String policy, String priorityThreshold) {
  private static final Set<String> POLICIES =
      Set.of(QueuePolicy.PRIORITY, QueuePolicy.BLOCK, QueuePolicy.FIFO, QueuePolicy.INTELLIGENT);

  /** What the quota says; an unknown policy name is ignored, as koord-queue ignores it. */
  public static QuotaQueueSettings of(ElasticQuota quota) {
    String policy = WellKnown.readQueueKey(quota.getMetadata().getLabels(), WellKnown.QUEUE_POLICY_LABEL);
    return new QuotaQueueSettings(
        policy != null && POLICIES.contains(policy) ? policy : null,
        WellKnown.readQueueKey(quota.getMetadata().getAnnotations(), WellKnown.PRIORITY_THRESHOLD));
  }

  /** Whether the Queue already says what the quota says. */
  public boolean appliedTo(Queue queue) {
    String current = queue.getSpec() == null ? null : queue.getSpec().getQueuePolicy();
    Map<String, String> annotations = queue.getMetadata().getAnnotations();
    return (policy == null || policy.equals(current))
        && (priorityThreshold == null
            || priorityThreshold.equals(annotations == null ? null : annotations.get(WellKnown.PRIORITY_THRESHOLD)));
  }

  /** The Queue with the quota's settings written into it. */
  public Queue applyTo(Queue queue) {
    if (policy != null) {
      if (queue.getSpec() == null) {
        queue.setSpec(new QueueSpec());
      }
      queue.getSpec().setQueuePolicy(policy);
    }
    if (priorityThreshold != null) {
      Map<String, String> annotations =
          new HashMap<>(Objects.requireNonNullElse(queue.getMetadata().getAnnotations(), Map.of()));
      annotations.put(WellKnown.PRIORITY_THRESHOLD, priorityThreshold);
      queue.getMetadata().setAnnotations(annotations);
    }
    return queue;
  }
}
