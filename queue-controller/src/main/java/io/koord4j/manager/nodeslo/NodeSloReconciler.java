package io.koord4j.manager.nodeslo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.manager.noderesource.BatchResourceReconciler;
import io.koord4j.manager.noderesource.SloConfigMap;
import io.koord4j.manager.support.InformerReconciler;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.SharedInformers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's NodeSLO controller: every node has a NodeSLO of its name whose spec comes from the
 * {@code slo-controller-config} ConfigMap ({@link NodeSloConfig}), rewritten when the ConfigMap or
 * the node's labels change and when someone else edits it. The NodeSLO is owned by its node, so it
 * goes with it. Strategies the ConfigMap does not speak of (host applications, extensions) are left
 * as they are. Nodes, NodeSLOs and the ConfigMap are read through the process's shared informers,
 * beside the batch-resource controller that reads two of them too.
 */
public final class NodeSloReconciler implements AutoCloseable {
  public static final String NAME = "nodeslo";
  private static final Logger LOG = LoggerFactory.getLogger(NodeSloReconciler.class);

  private final KubernetesClient client;
  private final SharedIndexInformer<NodeSLO> slos;
  private final SloConfigMap sloConfig;
  private final Predicate<Node> served;
  private final InformerReconciler<Node> nodes;
  /** The ConfigMap data last parsed and its result: node heartbeats reconcile often, the ConfigMap rarely changes. */
  private volatile Parsed parsed = new Parsed(Map.of(), NodeSloConfig.DEFAULT);

  private record Parsed(Map<String, String> data, NodeSloConfig config) {}

  /** @param served the nodes given a NodeSLO: all of them, but for a test's own */
  NodeSloReconciler(KubernetesClient client, SharedInformers informers, String configNamespace, Predicate<Node> served) {
    this.client = client;
    this.slos = informers.of(NodeSLO.class);
    this.sloConfig = new SloConfigMap(informers, configNamespace);
    this.served = served;
    this.nodes = new InformerReconciler<>(NAME, informers, Node.class, this::reconcile);
  }

  /** The controller, with the batch resources ({@value BatchResourceReconciler#SWITCH}) and when the cluster serves NodeSLOs. */
  public static Optional<NodeSloReconciler> forCluster(
      KubernetesClient client, SharedInformers informers, Map<String, String> env) {
    if (!Boolean.parseBoolean(env.get(BatchResourceReconciler.SWITCH))) {
      return Optional.empty();
    }
    if (!client.supports(NodeSLO.class)) {
      LOG.info("NodeSLO is not installed; nodes get no NodeSLO until the manager restarts after it is");
      return Optional.empty();
    }
    return Optional.of(new NodeSloReconciler(client, informers, SloConfigMap.namespace(env), node -> true));
  }

  /** Reconciles every node, then each node whose NodeSLO changes, and every node when the ConfigMap does. */
  public void start() {
    nodes.follow(slos, slo -> nodes.trigger(slo.getMetadata().getName()));
    sloConfig.triggersAll(nodes);
    nodes.start();
  }

  @Override
  public void close() {
    nodes.close();
  }

  void reconcile(Node node) {
    if (!served.test(node)) {
      return;
    }
    String name = node.getMetadata().getName();
    NodeSLOSpec wanted;
    try {
      Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
      wanted = config(sloConfig.data()).specFor(labels);
    } catch (IllegalArgumentException e) {
      LOG.warn("node {}: NodeSLO left as it is: {}", name, e.getMessage());
      return;
    }
    Optional<NodeSLO> current = Optional.ofNullable(slos.getStore().getByKey(name));
    if (current.isEmpty()) {
      client.resource(create(node, wanted)).create();
      LOG.info("node {}: NodeSLO created", name);
    } else if (!sameStrategies(current.get().getSpec(), wanted)) {
      NodeSLO updated = Json.copy(current.get());
      updated.setSpec(withStrategies(updated.getSpec(), wanted));
      client.resource(updated).update();
      LOG.info("node {}: NodeSLO spec updated from {}", name, SloConfigMap.NAME);
    }
  }

  private NodeSloConfig config(Map<String, String> data) {
    Parsed last = parsed;
    if (!last.data().equals(data)) {
      last = new Parsed(Map.copyOf(data), NodeSloConfig.parse(data));
      parsed = last;
    }
    return last.config();
  }

  private static NodeSLO create(Node node, NodeSLOSpec spec) {
    NodeSLO slo = new NodeSLO();
    slo.getMetadata().setName(node.getMetadata().getName());
    slo.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Node").withName(node.getMetadata().getName())
        .withUid(node.getMetadata().getUid()).build()));
    slo.setSpec(spec);
    return slo;
  }

  /** The ConfigMap's strategies over the current spec, keeping what the ConfigMap does not set. */
  private static NodeSLOSpec withStrategies(NodeSLOSpec current, NodeSLOSpec wanted) {
    NodeSLOSpec spec = current == null ? new NodeSLOSpec() : current;
    spec.setResourceUsedThresholdWithBE(wanted.getResourceUsedThresholdWithBE());
    spec.setResourceQOSStrategy(wanted.getResourceQOSStrategy());
    spec.setCpuBurstStrategy(wanted.getCpuBurstStrategy());
    spec.setSystemStrategy(wanted.getSystemStrategy());
    return spec;
  }

  private static boolean sameStrategies(NodeSLOSpec current, NodeSLOSpec wanted) {
    return tree(withStrategies(current == null ? new NodeSLOSpec() : Json.copy(current), wanted)).equals(tree(current));
  }

  /** Through JSON text, so that numbers compare by value whatever Java type holds them. */
  private static JsonNode tree(Object value) {
    return Serialization.unmarshal(Serialization.asJson(value), JsonNode.class);
  }
}
