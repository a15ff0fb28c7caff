package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.LocalCluster;
import java.util.UUID;

/**
 * What each webhook integration test stands on: a client of the local cluster, the webhook's own
 * namespace (for its Secret), a namespace for the objects the test creates, and the server under
 * test. Closing it stops the server, removes its cluster-wide configurations (so that they never
 * hold up other tests) and deletes both namespaces.
 */
final class WebhookTestBed implements AutoCloseable {
  final KubernetesClient client = LocalCluster.client();
  final String suffix = UUID.randomUUID().toString().substring(0, 8);
  final String ownNamespace;
  final String objectNamespace;
  private WebhookServer server;

  WebhookTestBed(String prefix) {
    ownNamespace = createNamespace(prefix + "-own-" + suffix);
    objectNamespace = createNamespace(prefix + "-" + suffix);
  }

  /** Starts the server under test; {@link #close} stops it. */
  WebhookServer start(WebhookServer webhook) {
    server = webhook;
    webhook.start();
    return webhook;
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      server.unregister();
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
