package io.koord4j.manager;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers, run while this replica holds the leader Lease. A replica that loses the lease
 * exits, so that it never acts next to the new leader; its restart joins the election again.
 *
 * <p>The elector calls back on its own thread while holding its own lock, and renews the lease
 * only once the start callback has returned. So the controllers start on a thread of their own,
 * and the lease stays renewed (and the fence open) while they rebuild their state; and a replica
 * that lost the lease exits from a thread of its own, since exiting waits for {@link #stop}, which
 * needs the elector's lock to release the lease.
 */
final class Leadership {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private final LeaseFence lease;
  private final LeaderControllers controllers;
  private final IntConsumer exit;
  private final LeaderElector elector;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicReference<CompletableFuture<?>> election = new AtomicReference<>();

  /**
   * @param electors builds the elector for a configuration (the cluster's client and its threads)
   * @param exit ends the process with a status, running its shutdown (which calls {@link #stop})
   */
  Leadership(
      Function<LeaderElectionConfig, LeaderElector> electors,
      ManagerSettings settings,
      LeaseFence lease,
      LeaderControllers controllers,
      IntConsumer exit) {
    this.lease = lease;
    this.controllers = controllers;
    this.exit = exit;
    this.elector = electors.apply(config(settings));
  }

  /** Joins the election; the future ends when this replica stops leading or {@link #stop} cancels it. */
  CompletableFuture<?> start() {
    election.set(elector.start());
    return election.get();
  }

  /**
   * Hands over: nothing is written as the leader from now on (fenced, then the controllers
   * stopped), then the lease is released so that a successor need not wait for it to expire.
   */
  void stop() {
    stopping.set(true);
    lease.revoke();
    controllers.close();
    Optional.ofNullable(election.get()).ifPresent(future -> future.cancel(true));
    try {
      elector.release();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot release the lease ({}); a successor takes it once it expires", e.getMessage());
    }
  }

  private LeaderElectionConfig config(ManagerSettings settings) {
    return new LeaderElectionConfigBuilder()
        .withName(settings.leaseName())
        .withLock(lease)
        .withLeaseDuration(settings.leaseDuration())
        .withRenewDeadline(settings.renewDeadline())
        .withRetryPeriod(settings.retryPeriod())
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(
            new LeaderCallbacks(
                () -> new Thread(this::lead, "leading").start(),
                this::lost,
                leader -> LOG.info("leader is {}", leader)))
        .build();
  }

  private void lead() {
    try {
      LOG.info("leading: rebuilding the admission state and starting the controllers");
      controllers.start();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("cannot start the controllers", e);
      exit.accept(1);
    }
  }

  private void lost() {
    if (stopping.get()) {
      return;
    }
    lease.revoke();
    LOG.error("lost leadership; exiting so another replica takes over");
    new Thread(() -> exit.accept(1), "lost-leadership").start();
  }
}
