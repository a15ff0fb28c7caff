package io.koord4j.e2e.chaos;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.manager.it.ManagerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Manager replicas sharing one Lease, kept at their number as a Deployment would: a replica that
 * has exited (killed, or gone after losing its Lease) is replaced within a second.
 */
final class ManagerReplicas implements AutoCloseable {
  private final KubernetesClient client;
  private final String namespace;
  private final String lease;
  private final Duration leaseDuration;
  private final String logPrefix;
  private final List<ManagerProcess> replicas = new ArrayList<>();
  private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor();
  private int started;

  ManagerReplicas(KubernetesClient client, String namespace, String lease, Duration leaseDuration, String logPrefix) {
    this.client = client;
    this.namespace = namespace;
    this.lease = lease;
    this.leaseDuration = leaseDuration;
    this.logPrefix = logPrefix;
  }

  synchronized void start(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      replicas.add(next());
    }
    supervisor.scheduleWithFixedDelay(this::replaceExited, 1, 1, TimeUnit.SECONDS);
  }

  /** The replica holding the Lease, once one does. */
  synchronized Optional<ManagerProcess> leader() throws IOException {
    String holder = holder();
    for (ManagerProcess replica : replicas) {
      if (replica.isAlive() && replica.leaseIdentity().equals(holder)) {
        return Optional.of(replica);
      }
    }
    return Optional.empty();
  }

  /** Who holds the Lease now, as the Lease says. */
  String holder() {
    Lease current = client.leases().inNamespace(namespace).withName(lease).get();
    return current == null || current.getSpec() == null ? null : current.getSpec().getHolderIdentity();
  }

  /** Replicas started in all, the first ones included. */
  synchronized int started() {
    return started;
  }

  @Override
  public synchronized void close() throws InterruptedException {
    supervisor.shutdownNow();
    for (ManagerProcess replica : replicas) {
      replica.stop();
    }
  }

  private synchronized void replaceExited() {
    try {
      for (int i = 0; i < replicas.size(); i++) {
        if (!replicas.get(i).isAlive()) {
          replicas.set(i, next());
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot start a manager replica", e);
    }
  }

  private ManagerProcess next() throws IOException {
    started++;
    return ManagerProcess.start(namespace, lease, leaseDuration, logPrefix + "-manager-" + started);
  }
}
