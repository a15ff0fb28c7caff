package io.koord4j.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/** A leader Lease kept as the API server keeps it, for this replica; it can become unreachable. */
final class InMemoryLease implements Lock {
  private final String identity;
  /** Runs as each write is sent, before it lands: a slow write moves a fake clock here. */
  private final Runnable sending;
  private LeaderElectionRecord record;
  private int writes;
  private boolean unreachable;

  InMemoryLease(String identity) {
    this(identity, () -> {});
  }

  InMemoryLease(String identity, Runnable sending) {
    this.identity = identity;
    this.sending = sending;
  }

  /** From now on every read and write fails, as while the API server restarts. */
  synchronized void becomeUnreachable() {
    unreachable = true;
  }

  /** Another replica takes the lease and renews it just now. */
  synchronized void takenBy(String other) {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    record = new LeaderElectionRecord(other, Duration.ofMinutes(1), now, now, 1);
  }

  synchronized String holder() {
    return record == null ? null : record.getHolderIdentity();
  }

  /** Writes that landed: acquisitions, renewals and releases. */
  synchronized int writes() {
    return writes;
  }

  @Override
  public synchronized LeaderElectionRecord get(KubernetesClient client) {
    reach();
    return record;
  }

  @Override
  public void create(KubernetesClient client, LeaderElectionRecord written) {
    write(written);
  }

  @Override
  public void update(KubernetesClient client, LeaderElectionRecord written) {
    write(written);
  }

  private void write(LeaderElectionRecord written) {
    sending.run();
    synchronized (this) {
      reach();
      record = written;
      writes++;
    }
  }

  private void reach() {
    if (unreachable) {
      throw new KubernetesClientException("connection refused");
    }
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public String describe() {
    return "Lease in memory";
  }
}
