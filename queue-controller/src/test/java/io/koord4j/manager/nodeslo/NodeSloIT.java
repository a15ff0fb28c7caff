package io.koord4j.manager.nodeslo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import io.koord4j.manager.noderesource.SloConfigMap;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.PrivateKwokNode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NodeSLO controller on the real control plane: a KWOK node of the test's own, the
 * slo-controller-config ConfigMap in the test's namespace, and the NodeSLO the controller keeps in
 * step with both until the node goes. The controller serves only nodes labelled for this test, so
 * that the shared cluster's other nodes get no NodeSLO.
 */
class NodeSloIT {
  private static final Duration WAIT = Duration.ofMinutes(2);
  private static final String TEST_LABEL = "koord4j.io/nodeslo-it";
  private static final String TIER_LABEL = "koord4j.io/nodeslo-it-tier";

  private KubernetesClient client;
  private String namespace;
  private PrivateKwokNode node;
  private SharedInformers informers;
  private NodeSloReconciler slos;

  @BeforeEach
  void setUp() {
    client = LocalCluster.client();
    LocalCluster.ensureCrds(client, "nodeslos.slo.koordinator.sh");
    namespace = LocalCluster.createNamespace(client, "nodeslo-it");
    node = PrivateKwokNode.create(client, namespace, "8", "16Gi");
    LocalCluster.labelNode(client, node.name(), Map.of(TEST_LABEL, namespace));
  }

  @AfterEach
  void tearDown() {
    if (slos != null) {
      slos.close();
      informers.close();
    }
    client.resources(NodeSLO.class).withName(node.name()).delete();
    node.close();
    client.namespaces().withName(namespace).delete();
    client.close();
  }

  @Test
  void nodeSloFollowsTheConfigMapAndTheNodesLabels() {
    client.resource(config(55, 45)).create();
    informers = new SharedInformers(client);
    slos = new NodeSloReconciler(client, informers, namespace,
        candidate -> candidate.getMetadata().getLabels() != null
            && namespace.equals(candidate.getMetadata().getLabels().get(TEST_LABEL)));
    slos.start();

    // The cluster strategy, merged over Koordinator's defaults; the node is its owner.
    awaitThresholds(t -> t.getEnable() && t.getCpuSuppressThresholdPercent() == 55
        && t.getMemoryEvictThresholdPercent() == 70 && "cpuset".equals(t.getCpuSuppressPolicy()));
    NodeSLO created = slo();
    assertThat(created.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getKind() + "/" + owner.getName()).isEqualTo("Node/" + node.name()));
    assertThat(created.getSpec().getCpuBurstStrategy()).containsEntry("policy", "auto");

    // The node joins the tier a node strategy selects.
    LocalCluster.labelNode(client, node.name(), Map.of(TIER_LABEL, "gold"));
    awaitThresholds(t -> t.getCpuSuppressThresholdPercent() == 45 && t.getEnable());

    // The ConfigMap changes.
    client.configMaps().inNamespace(namespace).resource(config(55, 35)).update();
    awaitThresholds(t -> t.getCpuSuppressThresholdPercent() == 35);

    // An edit of the NodeSLO by hand is put back.
    client.resources(NodeSLO.class).withName(node.name()).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\": {\"resourceUsedThresholdWithBE\": {\"cpuSuppressThresholdPercent\": 99}}}");
    awaitThresholds(t -> t.getCpuSuppressThresholdPercent() == 35);

    // Without the ConfigMap, the defaults.
    client.configMaps().inNamespace(namespace).withName(SloConfigMap.NAME).delete();
    awaitThresholds(t -> !t.getEnable() && t.getCpuSuppressThresholdPercent() == 65);
    await().atMost(WAIT).untilAsserted(() -> assertThat(slo().getSpec().getCpuBurstStrategy()).isNull());

    // The NodeSLO goes with its node (the garbage collector follows the owner reference).
    node.close();
    await().atMost(WAIT).until(() -> client.resources(NodeSLO.class).withName(node.name()).get() == null);
  }

  private ConfigMap config(long clusterSuppressPercent, long goldSuppressPercent) {
    return new ConfigMapBuilder().withNewMetadata().withName(SloConfigMap.NAME).withNamespace(namespace).endMetadata()
        .addToData(NodeSloConfig.RESOURCE_THRESHOLD_KEY, """
            {"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": %d},
             "nodeStrategies": [{"name": "gold", "nodeSelector": {"matchLabels": {"%s": "gold"}},
                                 "cpuSuppressThresholdPercent": %d}]}
            """.formatted(clusterSuppressPercent, TIER_LABEL, goldSuppressPercent))
        .addToData(NodeSloConfig.CPU_BURST_KEY, """
            {"clusterStrategy": {"policy": "auto", "cpuBurstPercent": 1000}}""")
        .build();
  }

  private void awaitThresholds(java.util.function.Predicate<ResourceThresholdStrategy> expected) {
    await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
      NodeSLO slo = client.resources(NodeSLO.class).withName(node.name()).get();
      return slo != null && slo.getSpec() != null && slo.getSpec().getResourceUsedThresholdWithBE() != null
          && expected.test(slo.getSpec().getResourceUsedThresholdWithBE());
    });
  }

  private NodeSLO slo() {
    return Objects.requireNonNull(client.resources(NodeSLO.class).withName(node.name()).get());
  }
}
