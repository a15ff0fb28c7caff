package io.koord4j.probes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership over one Lease with Kubernetes' default timing (renew within two thirds of the lease,
 * retry every 2/15 of it). A leader that loses the Lease exits so that it never acts next to its
 * successor; {@link #stop()} before a clean shutdown releases the Lease at once instead.
 *
 * <p>The elector calls back on its own thread and renews the Lease only once the start callback
 * has returned, so the leader starts on a thread of its own: a start that lists a large cluster
 * must not let the Lease lapse and a second replica lead beside it.
 */
public final class LeaderElection {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final AtomicBoolean stopping = new AtomicBoolean();
  private final LeaderElector elector;

  /**
   * @param lead what to start on becoming leader; a failure to start exits the process
   */
  public LeaderElection(
      KubernetesClient client, String namespace, String leaseName, Duration leaseDuration, Startable lead)
      throws UnknownHostException {
    // Not the pid: in containers it is 1 everywhere, and replicas may share a host name.
    String identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
    this.elector =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(leaseName)
                    .withLock(new LeaseLock(namespace, leaseName, identity))
                    .withLeaseDuration(leaseDuration)
                    .withRenewDeadline(leaseDuration.multipliedBy(2).dividedBy(3))
                    .withRetryPeriod(leaseDuration.multipliedBy(2).dividedBy(15))
                    .withReleaseOnCancel(true)
                    .withLeaderCallbacks(
                        new LeaderCallbacks(
                            () -> new Thread(() -> start(lead), "leading").start(),
                            this::lost,
                            leader -> LOG.info("leader is {}", leader)))
                    .build())
            .build();
  }

  /** What a leader runs. */
  @FunctionalInterface
  public interface Startable {
    void start() throws Exception;
  }

  /** Campaigns, then leads, until the process stops. */
  public void run() {
    try {
      elector.run();
    } finally {
      // An interrupt ends the campaign; it must not also cut short the calls that release the Lease.
      boolean interrupted = Thread.interrupted();
      try {
        elector.release();
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Marks a clean shutdown: losing the Lease from now on is expected. */
  public void stop() {
    stopping.set(true);
  }

  private void start(Startable lead) {
    try {
      lead.start();
    } catch (Exception e) {
      LOG.error("cannot start as leader", e);
      System.exit(1);
    }
  }

  private void lost() {
    if (!stopping.get()) {
      LOG.error("lost leadership; exiting so another replica takes over");
      // Not on the elector's thread: exiting waits for the shutdown, which ends the election.
      new Thread(() -> System.exit(1), "lost-leadership").start();
    }
  }
}
