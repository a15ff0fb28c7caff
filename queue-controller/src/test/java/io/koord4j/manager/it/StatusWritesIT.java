package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.koord4j.api.queue.QueueUnitConditions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Status writes stay proportional to decisions: an admission elsewhere in the quota changes the
 * amounts of a waiting unit's shortage, not why it waits, so the waiting unit is not rewritten.
 */
class StatusWritesIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aWaitingUnitIsNotRewrittenWhenOnlyTheAmountsOfItsShortageChange() {
    try (TestCluster cluster = new TestCluster(client, "it-writes")) {
      cluster.queue("team", "Priority");
      String quota = cluster.quota("team", null, false, "4", "4");
      cluster.job("running", quota, 1, "2", 0, "60s");
      await().atMost(WAIT).until(() -> cluster.resumed("running"));
      cluster.job("big", quota, 1, "3", 0, "2s");
      Condition shortage = await().atMost(WAIT).until(
          () -> cluster.condition("big", QueueUnitConditions.QUOTA_RESERVED),
          c -> c != null && "QuotaShortage".equals(c.getReason()));
      String version = cluster.unit("big").getMetadata().getResourceVersion();

      cluster.job("small", quota, 1, "1", 0, "60s");
      await().atMost(WAIT).until(() -> cluster.resumed("small"));
      await().pollDelay(Duration.ofSeconds(2)).atMost(WAIT).until(() -> true);

      assertThat(cluster.unit("big").getMetadata().getResourceVersion())
          .as("big was rewritten; it still waits with: %s", shortage.getMessage())
          .isEqualTo(version);
      assertThat(cluster.condition("big", QueueUnitConditions.QUOTA_RESERVED).getReason())
          .isEqualTo("QuotaShortage");
    }
  }
}
