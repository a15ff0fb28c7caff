package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.cache.ClusterCache;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What each webhook integration test stands on: a client of the local cluster with koord4j's
 * CRDs, the webhook's own namespace (for its Secret), a namespace for the objects the test
 * creates, and the server under test. Closing it stops the server, removes its cluster-wide
 * configurations (so that they never hold up other tests) and deletes both namespaces. The CRDs
 * stay: other tests on the cluster use them.
 */
final class WebhookTestBed implements AutoCloseable {
  private static final List<String> CRDS =
      List.of(
          "elasticquotas.scheduling.sigs.k8s.io-v1.yml",
          "podgroups.scheduling.sigs.k8s.io-v1.yml",
          "queues.scheduling.x-k8s.io-v1.yml",
          "queueunits.scheduling.x-k8s.io-v1.yml");

  final KubernetesClient client = LocalCluster.client();
  final String suffix = UUID.randomUUID().toString().substring(0, 8);
  final String ownNamespace;
  final String objectNamespace;
  private WebhookServer server;
  private ClusterCache cache;

  WebhookTestBed(String prefix) {
    installCrds();
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

  private void installCrds() {
    Path manifests = LocalCluster.repoRoot().resolve("crds/manifests");
    for (String file : CRDS) {
      CustomResourceDefinition crd;
      try (InputStream in = Files.newInputStream(manifests.resolve(file))) {
        crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      client.resource(crd).fieldManager("koord4j-webhook-it").forceConflicts().serverSideApply();
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(WebhookTestBed::established, 60, TimeUnit.SECONDS);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
