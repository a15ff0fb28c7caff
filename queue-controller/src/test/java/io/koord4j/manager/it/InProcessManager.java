package io.koord4j.manager.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.manager.Manager;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * One manager for all integration tests of this JVM: two would both admit. Tests that run their
 * own manager process stop it first.
 */
public final class InProcessManager {
  private static Manager manager;
  private static KubernetesClient client;
  private static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();

  private InProcessManager() {}

  static synchronized void ensureRunning() throws InterruptedException {
    if (manager == null) {
      ensureNodes();
      // The manager watches only kinds the cluster serves when it starts; their operators are
      // started by the tests that run them.
      LocalCluster.script("jobs", "crds");
      // Queues may name Kueue AdmissionChecks, which the manager reads only if their kind is served.
      LocalCluster.script("kueue", "crds");
      client = LocalCluster.client();
      LocalCluster.ensureAllCrds(client);
      // The only manager of the test JVM, without an election: it always leads.
      manager = new Manager(client, REGISTRY, () -> true);
      manager.start();
      Runtime.getRuntime().addShutdownHook(new Thread(InProcessManager::stop));
    }
  }

  static synchronized Manager manager() throws InterruptedException {
    ensureRunning();
    return manager;
  }

  /** The metrics of the manager, as it publishes them. */
  static MeterRegistry registry() {
    return REGISTRY;
  }

  /** The KWOK nodes the tests' pods run on. */
  public static void ensureNodes() {
    LocalCluster.script("nodes", "--count", "4", "--cpu", "32", "--memory", "128Gi");
  }

  /**
   * Stops the manager and deletes the system quotas it created, so that the shared cluster is
   * left as the tests found it.
   */
  public static synchronized void stop() {
    if (manager != null) {
      manager.close();
      SystemQuotas.all().forEach(quota -> client.resource(quota).delete());
      client.close();
      manager = null;
    }
  }
}
