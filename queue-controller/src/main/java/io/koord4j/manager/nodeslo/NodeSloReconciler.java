package io.koord4j.manager.nodeslo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.manager.noderesource.BatchResourceReconciler;
import io.koord4j.manager.noderesource.SloConfigMap;
import io.koord4j.manager.support.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's NodeSLO controller: every node has a NodeSLO of its name whose spec comes from the
 * {@code slo-controller-config} ConfigMap ({@link NodeSloConfig}), rewritten when the ConfigMap or
 * the node's labels change and when someone else edits it. The NodeSLO is owned by its node, so it
 * goes with it. Strategies the ConfigMap does not speak of (host applications, extensions) are left
 * as they are.
 */
public final class NodeSloReconciler implements Reconciler<Node> {
  public static final String NAME = "nodeslo";
  private static final Logger LOG = LoggerFactory.getLogger(NodeSloReconciler.class);

  private final String configNamespace;
  /** The ConfigMap data last parsed and its result: node heartbeats reconcile often, the ConfigMap rarely changes. */
  private volatile Parsed parsed = new Parsed(Map.of(), NodeSloConfig.DEFAULT);

  private record Parsed(Map<String, String> data, NodeSloConfig config) {}

  public NodeSloReconciler(String configNamespace) {
    this.configNamespace = configNamespace;
  }

  /** The controller, with the batch resources ({@value BatchResourceReconciler#SWITCH}) and when the cluster serves NodeSLOs. */
  public static Optional<NodeSloReconciler> forCluster(KubernetesClient client, Map<String, String> env) {
    if (!Boolean.parseBoolean(env.get(BatchResourceReconciler.SWITCH))) {
      return Optional.empty();
    }
    if (!client.supports(NodeSLO.class)) {
      LOG.info("NodeSLO is not installed; nodes get no NodeSLO until the manager restarts after it is");
      return Optional.empty();
    }
    return Optional.of(new NodeSloReconciler(SloConfigMap.namespace(env)));
  }

  @Override
  public List<EventSource<?, Node>> prepareEventSources(EventSourceContext<Node> context) {
    return List.of(
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(NodeSLO.class, Node.class)
                .withSecondaryToPrimaryMapper(slo -> Set.of(new ResourceID(slo.getMetadata().getName())))
                .build(),
            context),
        SloConfigMap.informer(Node.class, configNamespace, context));
  }

  @Override
  public UpdateControl<Node> reconcile(Node node, Context<Node> context) {
    String name = node.getMetadata().getName();
    NodeSLOSpec wanted;
    try {
      Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
      wanted = config(SloConfigMap.data(context)).specFor(labels);
    } catch (IllegalArgumentException e) {
      LOG.warn("node {}: NodeSLO left as it is: {}", name, e.getMessage());
      return UpdateControl.noUpdate();
    }
    Optional<NodeSLO> current = context.getSecondaryResource(NodeSLO.class);
    if (current.isEmpty()) {
      context.getClient().resource(create(node, wanted)).create();
      LOG.info("node {}: NodeSLO created", name);
    } else if (!sameStrategies(current.get().getSpec(), wanted)) {
      NodeSLO updated = Json.copy(current.get());
      updated.setSpec(withStrategies(updated.getSpec(), wanted));
      context.getClient().resource(updated).update();
      LOG.info("node {}: NodeSLO spec updated from {}", name, SloConfigMap.NAME);
    }
    return UpdateControl.noUpdate();
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
