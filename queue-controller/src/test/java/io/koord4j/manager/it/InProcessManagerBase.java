package io.koord4j.manager.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Integration tests against the one in-process manager, each class with its own client. */
abstract class InProcessManagerBase {
  static KubernetesClient client;

  @BeforeAll
  static void startManager() throws InterruptedException {
    InProcessManager.ensureRunning();
    client = LocalCluster.client();
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }
}
