package io.koord4j.scheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One table of pod-versus-node cases that every judge of fit must decide alike: the scheduler's
 * framework, the node filters the gang-feasibility check borrows from it, the check itself and
 * the admission loop. Each node is Ready with 32 CPUs and 128 GiB; in the cases {@link
 * #byNodeAlone} the pod fits them (4 CPUs, 8 GiB), so only taints, tolerations, nodeSelector and
 * node affinity decide, and in the rest its requests do.
 *
 * @param fits whether koord-scheduler would place the pod on the node
 */
public record NodeFitCases(String name, Node node, PodSpec pod, boolean fits) {

  @Override
  public String toString() {
    return name;
  }

  /** Every case: those decided by the node alone, then those decided by the pod's requests. */
  public static List<NodeFitCases> all() {
    List<NodeFitCases> all = new ArrayList<>(byNodeAlone());
    all.add(new NodeFitCases("asks more CPU than the node has", node(Map.of()), asking("33", "8Gi"), false));
    all.add(new NodeFitCases("asks more memory than the node has", node(Map.of()), asking("4", "129Gi"), false));
    all.add(new NodeFitCases("asks all the node has", node(Map.of()), asking("32", "128Gi"), true));
    return List.copyOf(all);
  }

  /** The cases in which the pod's requests fit the node, so that only the node's filters decide. */
  public static List<NodeFitCases> byNodeAlone() {
    return List.of(
        new NodeFitCases("plain node, plain pod", node(Map.of()), plainPod().build(), true),
        new NodeFitCases(
            "NoSchedule taint, no toleration",
            tainted("NoSchedule"),
            plainPod().build(),
            false),
        new NodeFitCases(
            "NoExecute taint, no toleration", tainted("NoExecute"), plainPod().build(), false),
        new NodeFitCases(
            "PreferNoSchedule taint only prefers", tainted("PreferNoSchedule"), plainPod().build(), true),
        new NodeFitCases(
            "NoSchedule taint, tolerated by key and value",
            tainted("NoSchedule"),
            plainPod().addNewToleration()
                .withKey("dedicated")
                .withOperator("Equal")
                .withValue("training")
                .withEffect("NoSchedule")
                .endToleration()
                .build(),
            true),
        new NodeFitCases(
            "NoSchedule taint, toleration of another value",
            tainted("NoSchedule"),
            plainPod().addNewToleration()
                .withKey("dedicated")
                .withOperator("Equal")
                .withValue("inference")
                .endToleration()
                .build(),
            false),
        new NodeFitCases(
            "nodeSelector matches", node(Map.of("pool", "gpu")), selecting("gpu"), true),
        new NodeFitCases(
            "nodeSelector does not match", node(Map.of("pool", "cpu")), selecting("gpu"), false),
        new NodeFitCases(
            "required affinity In matches",
            node(Map.of("zone", "a")),
            requiring("zone", "In", "a"),
            true),
        new NodeFitCases(
            "required affinity In does not match",
            node(Map.of("zone", "b")),
            requiring("zone", "In", "a"),
            false),
        new NodeFitCases(
            "required affinity NotIn excludes the node",
            node(Map.of("zone", "a")),
            requiring("zone", "NotIn", "a"),
            false));
  }

  private static Node node(Map<String, String> labels) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName("node")
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .withAllocatable(
            Map.of("cpu", new Quantity("32"), "memory", new Quantity("128Gi"), "pods", new Quantity("110")))
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  private static Node tainted(String effect) {
    Node node = node(Map.of());
    node.getSpec().setTaints(
        List.of(new Taint(effect, "dedicated", null, "training")));
    return node;
  }

  private static PodSpecBuilder plainPod() {
    return podAsking("4", "8Gi");
  }

  private static PodSpec asking(String cpu, String memory) {
    return podAsking(cpu, memory).build();
  }

  private static PodSpecBuilder podAsking(String cpu, String memory) {
    return new PodSpecBuilder(Fixtures.pod("pod", cpu, memory).getSpec());
  }

  private static PodSpec selecting(String pool) {
    return plainPod().withNodeSelector(Map.of("pool", pool)).build();
  }

  private static PodSpec requiring(String key, String operator, String value) {
    return plainPod().withNewAffinity()
        .withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
        .addNewNodeSelectorTerm()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator(operator)
        .withValues(value)
        .endMatchExpression()
        .endNodeSelectorTerm()
        .endRequiredDuringSchedulingIgnoredDuringExecution()
        .endNodeAffinity()
        .endAffinity()
        .build();
  }
}
