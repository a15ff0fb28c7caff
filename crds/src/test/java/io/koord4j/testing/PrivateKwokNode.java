package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A KWOK node of one test on the shared cluster, tainted from its creation so that only the
 * test's own pods (which tolerate it) land there; deleted on close.
 */
public final class PrivateKwokNode implements AutoCloseable {
  public static final String TAINT_KEY = "koord4j.io/private-node";

  private final KubernetesClient client;
  private final String name;

  private PrivateKwokNode(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
  }

  /** Creates the node with this capacity (also allocatable) and waits until KWOK reports it Ready. */
  public static PrivateKwokNode create(KubernetesClient client, String name, String cpu, String memory) {
    Map<String, Quantity> resources =
        Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110"));
    Node node = new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToAnnotations("kwok.x-k8s.io/node", "fake")
        .addToLabels("kubernetes.io/hostname", name)
        .addToLabels("type", "kwok")
        .endMetadata()
        .withNewSpec()
        .addNewTaint().withKey(TAINT_KEY).withValue(name).withEffect("NoSchedule").endTaint()
        .endSpec()
        .withNewStatus().withCapacity(resources).withAllocatable(resources).endStatus()
        .build();
    client.resource(node).create();
    client.nodes().withName(name).waitUntilCondition(
        n -> n != null && n.getStatus() != null && n.getStatus().getConditions() != null
            && n.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())),
        60, TimeUnit.SECONDS);
    return new PrivateKwokNode(client, name);
  }

  public String name() {
    return name;
  }

  /** What the test's pods carry to be placed on this node. */
  public Toleration toleration() {
    return new TolerationBuilder().withKey(TAINT_KEY).withOperator("Equal").withValue(name).withEffect("NoSchedule").build();
  }

  @Override
  public void close() {
    client.nodes().withName(name).delete();
  }
}
