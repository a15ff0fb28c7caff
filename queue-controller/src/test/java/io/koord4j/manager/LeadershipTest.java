package io.koord4j.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The manager's leader election on fabric8's elector, against a lease in memory: renewals go on
 * while the controllers start, and a replica that loses the lease stops writing and exits.
 */
class LeadershipTest {
  /** Renew deadline 6 s, a renewal every 1.2 s: a loaded machine does not miss the deadline. */
  private static final ManagerSettings SETTINGS =
      ManagerSettings.from(Map.of("KOORD4J_LEASE_DURATION_SECONDS", "9"), new String[0]);
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final InMemoryLease lease = new InMemoryLease("me");
  private final LeaseFence fence = new LeaseFence(lease, SETTINGS.renewDeadline(), System::nanoTime);
  private final Controllers controllers = new Controllers();
  private final ExecutorService electorThreads = Executors.newCachedThreadPool();
  /** The status the process exited with, once its shutdown has run; -1 while it runs. */
  private final AtomicInteger exitStatus = new AtomicInteger(-1);
  private final Leadership leadership =
      new Leadership(
          config -> new LeaderElector(null, config, electorThreads), SETTINGS, fence, controllers, this::exit);

  @AfterEach
  void stopEverything() {
    controllers.mayFinishStarting.countDown();
    electorThreads.shutdownNow();
  }

  @Test
  void theLeaseStaysRenewedWhileTheControllersTakeLongToStart() {
    leadership.start();
    await("the controllers start").atMost(PATIENCE).until(() -> controllers.starting.getCount() == 0);
    int acquired = lease.writes();

    // Six renewals span more than the renew deadline.
    await("renewals while the controllers start").atMost(PATIENCE).until(() -> lease.writes() >= acquired + 6);
    assertThat(fence.getAsBoolean()).as("the leader may write while its controllers start").isTrue();
    assertThat(exitStatus).as("still leading").hasValue(-1);
    assertThat(lease.holder()).isEqualTo("me");
  }

  @Test
  void aReplicaWhoseLeaseWasTakenStopsWritingAndExits() {
    controllers.mayFinishStarting.countDown();
    leadership.start();
    await("leading").atMost(PATIENCE).until(fence::getAsBoolean);

    lease.takenBy("successor");

    await("the replica exits").atMost(PATIENCE).until(() -> exitStatus.get() == 1);
    assertThat(fence.getAsBoolean()).as("writes as the leader").isFalse();
    assertThat(controllers.closed).isTrue();
    assertThat(lease.holder()).as("the successor keeps the lease").isEqualTo("successor");
  }

  @Test
  void aLeaderCutOffFromTheApiServerExitsOnceItsRenewDeadlinePasses() {
    controllers.mayFinishStarting.countDown();
    leadership.start();
    await("leading").atMost(PATIENCE).until(fence::getAsBoolean);

    lease.becomeUnreachable();

    await("the replica exits").atMost(PATIENCE).until(() -> exitStatus.get() == 1);
    assertThat(fence.getAsBoolean()).as("writes as the leader").isFalse();
    assertThat(controllers.closed).isTrue();
    assertThat(lease.holder()).as("nothing could be released").isEqualTo("me");
  }

  /** As {@link System#exit}: runs the shutdown on a thread of its own and waits for it. */
  private void exit(int status) {
    Thread shutdown = new Thread(leadership::stop, "shutdown");
    shutdown.start();
    try {
      shutdown.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    exitStatus.set(status);
  }

  /** Controllers whose start waits until the test lets it finish. */
  private static final class Controllers implements LeaderControllers {
    final CountDownLatch starting = new CountDownLatch(1);
    final CountDownLatch mayFinishStarting = new CountDownLatch(1);
    volatile boolean closed;

    @Override
    public void start() throws InterruptedException {
      starting.countDown();
      mayFinishStarting.await();
    }

    @Override
    public void close() {
      closed = true;
      mayFinishStarting.countDown();
    }
  }
}
