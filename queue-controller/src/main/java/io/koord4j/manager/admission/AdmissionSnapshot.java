package io.koord4j.manager.admission;

import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.quota.ResourceVector;
import java.util.List;
import java.util.Map;

/**
 * What the admission loop knows after a pass, published for the quota and queue controllers and
 * the metrics. Immutable.
 *
 * @param quotas figures per ElasticQuota name
 * @param queues per Queue {@link QueueKeys key} (namespace/name): which units wait in it
 */
public record AdmissionSnapshot(Map<String, QuotaFigures> quotas, Map<String, QueueFigures> queues) {

  public static final AdmissionSnapshot EMPTY = new AdmissionSnapshot(Map.of(), Map.of());

  public AdmissionSnapshot {
    quotas = Map.copyOf(quotas);
    queues = Map.copyOf(queues);
  }

  /**
   * @param used admitted units' requests at this quota and its descendants
   * @param runtime what the quota may use now, after borrowing and lending
   * @param request what the quota asks of its parent: its demand capped at max
   */
  public record QuotaFigures(
      String namespace, ResourceVector used, ResourceVector runtime, ResourceVector request) {}

  /**
   * @param items {@code active} and {@code backoff} lists, as in the Queue's status: each only
   *     the head of a long queue
   * @param pending how many of the queue's units wait, all of them
   * @param admitted how many of the queue's units hold quota
   */
  public record QueueFigures(Map<String, List<QueueItemDetail>> items, long pending, long admitted) {}
}
