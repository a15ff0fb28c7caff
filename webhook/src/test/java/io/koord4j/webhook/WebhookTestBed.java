package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.cache.ClusterCache;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What each webhook integration test stands on: a client of the local cluster with koord4j's
 * CRDs, the webhook's own namespace (for its Secret), a namespace for the objects the test
 * creates, and the server under test. Closing it stops the server, removes its cluster-wide
 * configurations (so that they never hold up other tests) and deletes both namespaces. The CRDs
 * stay: other tests on the cluster use them. Registered on an instance field with {@code
 * RegisterExtension}, it is made for each test and closed after it.
 */
final class WebhookTestBed implements AutoCloseable, AfterEachCallback {
  private static final String[] CRDS = {
    "elasticquotas.scheduling.sigs.k8s.io",
    "podgroups.scheduling.sigs.k8s.io",
    "queues.scheduling.x-k8s.io",
    "queueunits.scheduling.x-k8s.io"
  };

  final KubernetesClient client = LocalCluster.client();
  final String suffix = UUID.randomUUID().toString().substring(0, 8);
  final String ownNamespace;
  final String objectNamespace;
  private WebhookServer server;
  private ClusterCache cache;

  WebhookTestBed(String prefix) {
    LocalCluster.ensureCrds(client, CRDS);
    ownNamespace = createNamespace(prefix + "-own-" + suffix);
    objectNamespace = createNamespace(prefix + "-" + suffix);
  }

  /** Starts the server under test; {@link #close} stops it. */
  WebhookServer start(WebhookServer webhook) {
    server = webhook;
    webhook.start();
    return webhook;
  }

  /** A cache of the cluster, filled; {@link #close} stops it. */
  ClusterCache startCache() {
    cache = new ClusterCache(client);
    cache.start(Duration.ofSeconds(60));
    return cache;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      server.unregister();
    }
    if (cache != null) {
      cache.close();
    }
    client.namespaces().withName(ownNamespace).delete();
    client.namespaces().withName(objectNamespace).delete();
    client.close();
  }

  private String createNamespace(String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .endMetadata().build()).create();
    return name;
  }
}
