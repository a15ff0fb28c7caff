package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueStatus {
  public static final String ACTIVE = "active";
  public static final String BACKOFF = "backoff";

  /** Units waiting in the queue, under {@link #ACTIVE} and {@link #BACKOFF}. */
  private Map<String, List<QueueItemDetail>> queueItemDetails;

  public Map<String, List<QueueItemDetail>> getQueueItemDetails() {
    return queueItemDetails;
  }

  public void setQueueItemDetails(Map<String, List<QueueItemDetail>> queueItemDetails) {
    this.queueItemDetails = queueItemDetails;
  }
}
