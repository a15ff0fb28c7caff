package io.koord4j.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseFenceTest {
  private final AtomicLong now = new AtomicLong();
  /** How long each write to the lease takes, on the test's clock. */
  private Duration writeTakes = Duration.ZERO;
  private final InMemoryLease lease = new InMemoryLease("me", () -> advance(writeTakes));
  private final LeaseFence fence = new LeaseFence(lease, Duration.ofSeconds(10), now::get);

  @Test
  void aReplicaMayWriteOnlyWhileItsLastRenewalIsFresh() {
    assertThat(fence.getAsBoolean()).as("before acquiring").isFalse();
    fence.create(null, record("me"));
    assertThat(fence.getAsBoolean()).isTrue();

    advance(Duration.ofSeconds(9));
    assertThat(fence.getAsBoolean()).isTrue();
    advance(Duration.ofSeconds(2));
    assertThat(fence.getAsBoolean()).as("paused past the renewal").isFalse();

    fence.update(null, record("me"));
    assertThat(fence.getAsBoolean()).as("renewed").isTrue();
  }

  @Test
  void aRenewalIsDatedFromWhenItWasSent() {
    writeTakes = Duration.ofSeconds(8);

    fence.update(null, record("me"));
    advance(Duration.ofSeconds(3));

    assertThat(fence.getAsBoolean()).as("8s in flight, then 3s").isFalse();
  }

  @Test
  void aFailedRenewalExtendsNothing() {
    fence.update(null, record("me"));
    advance(Duration.ofSeconds(9));
    lease.becomeUnreachable();

    assertThatThrownBy(() -> fence.update(null, record("me"))).isInstanceOf(KubernetesClientException.class);
    advance(Duration.ofSeconds(2));
    assertThat(fence.getAsBoolean()).isFalse();
  }

  @Test
  void releasingOrRevokingEndsTheHold() {
    fence.update(null, record("me"));
    fence.revoke();
    assertThat(fence.getAsBoolean()).isFalse();

    fence.update(null, record("me"));
    fence.update(null, record(""));
    assertThat(fence.getAsBoolean()).isFalse();
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  private static LeaderElectionRecord record(String holder) {
    return new LeaderElectionRecord(
        holder, Duration.ofSeconds(15), ZonedDateTime.now(), ZonedDateTime.now(), 0);
  }
}
