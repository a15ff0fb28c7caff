package io.koord4j.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;

/** Clients of the local cluster for benchmarks. */
final class BenchClients {
  private BenchClients() {}

  /** Lists and deletions of thousands of objects on a busy control plane take longer than 10 s. */
  private static final int REQUEST_TIMEOUT_MILLIS = 300_000;

  /**
   * An admin client whose connection pool does not limit {@code threads} concurrent callers and
   * whose requests may take minutes.
   */
  static KubernetesClient admin(int threads) throws IOException {
    Config config = Config.fromKubeconfig(Files.readString(LocalCluster.kubeconfig()));
    config.setRequestTimeout(REQUEST_TIMEOUT_MILLIS);
    config.setMaxConcurrentRequests(threads * 2);
    config.setMaxConcurrentRequestsPerHost(threads * 2);
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
