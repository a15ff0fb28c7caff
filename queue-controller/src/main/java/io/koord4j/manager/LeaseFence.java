package io.koord4j.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The leader Lease, remembering when this replica last wrote it as holder: until {@code validFor}
 * after the start of that write, no other replica can have taken the lease, since one waits a
 * whole lease duration after it last saw the lease change. A replica paused past that (a long
 * GC, SIGSTOP) sees on waking that it may no longer hold the lease, before its next write, on a
 * monotonic clock that keeps counting while the process is stopped.
 */
final class LeaseFence implements Lock, BooleanSupplier {
  private final Lock lease;
  private final long validForNanos;
  private final LongSupplier nanoTime;
  /** Start of the last write that made this replica the holder; valid only if {@link #held}. */
  private long renewedAt;
  private boolean held;

  /** @param validFor shorter than the lease duration: how long a renewal is trusted */
  LeaseFence(Lock lease, Duration validFor, LongSupplier nanoTime) {
    this.lease = lease;
    this.validForNanos = validFor.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Whether this replica surely still holds the lease: it may write as the leader. */
  @Override
  public synchronized boolean getAsBoolean() {
    return held && nanoTime.getAsLong() - renewedAt < validForNanos;
  }

  /** From now on this replica writes nothing as the leader, as on shutdown before the release. */
  synchronized void revoke() {
    held = false;
  }

  @Override
  public LeaderElectionRecord get(KubernetesClient client) {
    return lease.get(client);
  }

  @Override
  public void create(KubernetesClient client, LeaderElectionRecord record) {
    long start = nanoTime.getAsLong();
    lease.create(client, record);
    written(record, start);
  }

  @Override
  public void update(KubernetesClient client, LeaderElectionRecord record) {
    long start = nanoTime.getAsLong();
    lease.update(client, record);
    written(record, start);
  }

  @Override
  public String identity() {
    return lease.identity();
  }

  @Override
  public String describe() {
    return lease.describe();
  }

  /** A stored record naming another holder, or none (a release), ends this replica's hold. */
  private synchronized void written(LeaderElectionRecord record, long start) {
    held = identity().equals(record.getHolderIdentity());
    renewedAt = start;
  }
}
