package io.koord4j.manager.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.scheduler.KoordScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;

/** koord-scheduler in the test's JVM, for the tests that run the manager with it. */
public final class TestSchedulers {
  private TestSchedulers() {}

  /**
   * Started under a name of the test's own, so that only the test's pods are its, retrying
   * pending pods quickly.
   */
  public static KoordScheduler start(KubernetesClient client, String schedulerName) {
    return start(client, schedulerName, new SimpleMeterRegistry());
  }

  /** As {@link #start(KubernetesClient, String)}, with its metrics in {@code registry}. */
  public static KoordScheduler start(KubernetesClient client, String schedulerName, MeterRegistry registry) {
    KoordScheduler scheduler = new KoordScheduler(client, registry,
        KoordScheduler.Options.defaults().withSchedulerName(schedulerName)
            .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)));
    scheduler.start();
    return scheduler;
  }
}
