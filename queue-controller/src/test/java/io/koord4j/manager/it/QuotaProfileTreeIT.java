package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.PrivateKwokNode;
import io.koord4j.webhook.WebhookServer;
import io.koord4j.webhook.WebhookSettings;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An ElasticQuotaProfile's quota tree as Koordinator runs it, on the real control plane with the
 * manager and its webhook: the tree admits within the total of the nodes its profile selects, the
 * webhook keeps the tree's pods on those nodes, and the default tree no longer counts them. The
 * pod webhook that does so is registered only while a profile exists.
 */
class QuotaProfileTreeIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final String QUOTA_TREE_WEBHOOK = "quota-trees.pods.koord4j.io";
  private static WebhookServer webhook;
  private static String webhookNamespace;
  private static String mutatingConfiguration;

  @BeforeAll
  static void startWebhook() {
    String suffix = Long.toString(System.nanoTime(), 36);
    webhookNamespace = "profile-tree-it-" + suffix;
    mutatingConfiguration = "koord4j-it-mutating-" + suffix;
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(webhookNamespace)
        .endMetadata().build()).create();
    webhook = WebhookServer.withAllHandlers(client, WebhookSettings.defaults(webhookNamespace)
        .withLocalUrl("127.0.0.1", 0)
        .withNames("profile-tree-it-" + suffix, new WebhookConfigurations.Names(
            mutatingConfiguration, "koord4j-it-validating-" + suffix)));
    webhook.start();
  }

  @AfterAll
  static void stopWebhook() {
    if (webhook != null) {
      webhook.close();
      webhook.unregister();
    }
    client.namespaces().withName(webhookNamespace).delete();
  }

  @Test
  void theTreeAdmitsWithinItsNodesKeepsItsPodsOnThemAndTheDefaultTreeLeavesThemOut() {
    List<PrivateKwokNode> nodes = new ArrayList<>();
    TestCluster cluster = new TestCluster(client, "it-eqp-tree");
    String pool = cluster.prefix;
    String root = cluster.prefix + "-root";
    try (cluster) { // closed first: the tree's quota goes before its root
      for (int i = 0; i < 2; i++) {
        nodes.add(QuotaProfileIT.zoneNode(cluster.prefix + "-pool-" + i, pool));
      }
      nodes.add(PrivateKwokNode.create(client, cluster.prefix + "-other", "8", "16Gi"));
      awaitQuotaTreeWebhookRegisteredWhileAProfileExists();
      client.resource(QuotaProfileIT.profile(cluster.namespace, pool, root)).create();
      await("the quota tree webhook registered").atMost(WAIT).until(QuotaProfileTreeIT::quotaTreeWebhookRegistered);
      ElasticQuota rootQuota = await("root quota " + root).atMost(WAIT).pollInterval(Duration.ofMillis(500))
          .until(() -> client.resources(ElasticQuota.class).inNamespace(cluster.namespace).withName(root).get(),
              quota -> quota != null && new Quantity("8").equals(quota.getSpec().getMin().get("cpu")));
      assertThat(rootQuota.getSpec().getMax()).containsEntry("cpu", new Quantity(SystemQuotas.UNLIMITED));
      String treeId = rootQuota.getMetadata().getLabels().get(WellKnown.QUOTA_TREE_ID);

      String team = cluster.quota("team", root, false, "0", "100");
      assertThat(ElasticQuotaSpecs.labels(cluster.quota(team))).as("tree id defaulted from the parent")
          .containsEntry(WellKnown.QUOTA_TREE_ID, treeId);
      List<Toleration> anyOfMine = nodes.stream().map(PrivateKwokNode::toleration).toList();
      for (String name : List.of("first", "second")) {
        Job job = cluster.jobOf(name, team, 1, "6", "600s", pod -> pod.withTolerations(anyOfMine));
        // Koordinator's docs label the pods with their quota too: that is what its webhook reads.
        job.getSpec().getTemplate().getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, team));
        client.resource(job).create();
      }

      Pod placed = await("the first job's pod placed").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
          .until(() -> podOf(cluster, "first"), pod -> pod != null && pod.getSpec().getNodeName() != null);
      assertThat(placed.getSpec().getNodeName()).startsWith(cluster.prefix + "-pool-");
      assertThat(placed.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
          .getNodeSelectorTerms()).singleElement().satisfies(term -> assertThat(term.getMatchExpressions())
              .extracting(e -> e.getKey() + " " + e.getOperator() + " " + e.getValues())
              .containsExactly(QuotaProfileIT.ZONE_LABEL + " In [" + pool + "]"));

      await("the second job waits for its tree's quota").atMost(WAIT).untilAsserted(() -> {
        Condition reserved = cluster.condition("second", QueueUnitConditions.QUOTA_RESERVED);
        assertThat(reserved).isNotNull();
        assertThat(reserved.getStatus()).isEqualTo("False");
        assertThat(reserved.getMessage()).contains(team, "has 2 of cpu available", "6 requested");
      });
      assertThat(cluster.resumed("second")).isFalse();

      await("the default tree's runtime leaves the tree's total out").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
          .until(() -> Objects.equals(rootRuntimeCpu(), clusterCpu() - profileTotalsCpu()));
    } finally {
      client.resources(ElasticQuotaProfile.class).inNamespace(cluster.namespace).withName(pool).delete();
      client.resources(ElasticQuota.class).inNamespace(cluster.namespace).withName(root).delete();
      nodes.forEach(PrivateKwokNode::close);
    }
    awaitQuotaTreeWebhookRegisteredWhileAProfileExists();
  }

  /** Registered exactly while some profile exists (other tests' included). */
  private static void awaitQuotaTreeWebhookRegisteredWhileAProfileExists() {
    await("the quota tree webhook registered only while a profile exists").atMost(WAIT)
        .until(() -> quotaTreeWebhookRegistered()
            == !client.resources(ElasticQuotaProfile.class).inAnyNamespace().list().getItems().isEmpty());
  }

  private static boolean quotaTreeWebhookRegistered() {
    return client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(mutatingConfiguration).get()
        .getWebhooks().stream().anyMatch(webhook -> QUOTA_TREE_WEBHOOK.equals(webhook.getName()));
  }

  private static Pod podOf(TestCluster cluster, String job) {
    return client.pods().inNamespace(cluster.namespace).withLabel("job-name", job).list().getItems().stream()
        .findFirst().orElse(null);
  }

  /** The CPU runtime the manager publishes on koordinator-root-quota: what the default tree shares. */
  private static Long rootRuntimeCpu() {
    ElasticQuota root = client.resources(ElasticQuota.class).inNamespace(SystemQuotas.NAMESPACE)
        .withName(WellKnown.ROOT_QUOTA).get();
    ResourceVector runtime = root == null ? null : ElasticQuotaSpecs.lenientResourceList(root, WellKnown.QUOTA_RUNTIME);
    return runtime == null ? null : runtime.get("cpu");
  }

  /** Every node's allocatable CPU, in millicores. */
  private static long clusterCpu() {
    return client.nodes().list().getItems().stream()
        .mapToLong(node -> ResourceQuantities.toVector(node.getStatus().getAllocatable()).get("cpu"))
        .sum();
  }

  /** The totals of every profile's tree, in millicores. */
  private static long profileTotalsCpu() {
    return client.resources(ElasticQuota.class).inAnyNamespace().list().getItems().stream()
        .map(ElasticQuotaSpecs::from)
        .filter(spec -> spec.treeTotal() != null && spec.parent().isEmpty())
        .mapToLong(spec -> spec.treeTotal().get("cpu"))
        .sum();
  }
}
