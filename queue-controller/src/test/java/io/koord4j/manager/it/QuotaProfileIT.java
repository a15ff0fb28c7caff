package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.quota.ElasticQuotaProfileSpec;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.PrivateKwokNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An ElasticQuotaProfile as Koordinator's docs write it, on the real control plane: the manager
 * creates the tree's root quota from the nodes the profile selects, resizes it as nodes join and
 * leave, and puts back a hand edit of its figures.
 */
class QuotaProfileIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofMinutes(2);
  static final String ZONE_LABEL = "koord4j.io/profile-it-zone";

  @Test
  void theRootQuotaFollowsTheSelectedNodes() {
    List<PrivateKwokNode> nodes = new ArrayList<>();
    try (TestCluster cluster = new TestCluster(client, "it-eqp")) {
      String zone = cluster.prefix;
      String root = cluster.prefix + "-root";
      for (int i = 0; i < 2; i++) {
        nodes.add(zoneNode(cluster.prefix + "-" + i, zone));
      }
      client.resource(profile(cluster.namespace, zone, root)).create();

      ElasticQuota created = awaitRootCpu(cluster.namespace, root, "8");
      assertThat(created.getMetadata().getLabels())
          .containsEntry(WellKnown.QUOTA_IS_ROOT, "true")
          .containsEntry(WellKnown.QUOTA_IS_PARENT, "true")
          .containsEntry(WellKnown.QUOTA_PROFILE, zone)
          .containsEntry(ZONE_LABEL, zone)
          .containsKey(WellKnown.QUOTA_TREE_ID);
      assertThat(created.getSpec().getMax()).containsEntry("cpu", new Quantity(SystemQuotas.UNLIMITED));

      nodes.add(zoneNode(cluster.prefix + "-2", zone));
      awaitRootCpu(cluster.namespace, root, "12");

      client.resources(ElasticQuota.class).inNamespace(cluster.namespace).withName(root)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"min\": {\"cpu\": \"10\"}}}");
      awaitRootCpu(cluster.namespace, root, "12");

      nodes.remove(0).close();
      awaitRootCpu(cluster.namespace, root, "8");
      client.resources(ElasticQuotaProfile.class).inNamespace(cluster.namespace).withName(zone).delete();
      client.resources(ElasticQuota.class).inNamespace(cluster.namespace).withName(root).delete();
    } finally {
      nodes.forEach(PrivateKwokNode::close);
    }
  }

  /** A 8-CPU node in the zone; the profile takes half of what its nodes hold. */
  static PrivateKwokNode zoneNode(String name, String zone) {
    PrivateKwokNode node = PrivateKwokNode.create(client, name, "8", "16Gi");
    LocalCluster.labelNode(client, node.name(), Map.of(ZONE_LABEL, zone));
    return node;
  }

  static ElasticQuotaProfile profile(String namespace, String zone, String rootQuota) {
    ElasticQuotaProfile profile = new ElasticQuotaProfile();
    profile.getMetadata().setName(zone);
    profile.getMetadata().setNamespace(namespace);
    ElasticQuotaProfileSpec spec = new ElasticQuotaProfileSpec();
    spec.setQuotaName(rootQuota);
    spec.setQuotaLabels(Map.of(ZONE_LABEL, zone));
    spec.setResourceRatio("0.5");
    spec.setNodeSelector(new LabelSelectorBuilder().addToMatchLabels(ZONE_LABEL, zone).build());
    profile.setSpec(spec);
    return profile;
  }

  private static ElasticQuota awaitRootCpu(String namespace, String name, String cpu) {
    return await("root quota " + name + " with min cpu " + cpu).atMost(WAIT).pollInterval(Duration.ofMillis(500))
        .until(() -> client.resources(ElasticQuota.class).inNamespace(namespace).withName(name).get(),
            quota -> quota != null && quota.getSpec().getMin() != null
                && new Quantity(cpu).equals(quota.getSpec().getMin().get("cpu")));
  }
}
