package io.koord4j.yarn;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import java.util.List;
import java.util.Map;

/**
 * Writes a node's third-party allocations annotation. A replacement is a JSON patch that first
 * tests the value the plan was made from, so that another allocator's concurrent write makes it
 * fail (the next round retries) instead of being lost; the node's status updates never conflict
 * with it, as they would with a resourceVersion.
 */
final class NodeAnnotations {
  private static final String PATH =
      "/metadata/annotations/" + WellKnown.THIRD_PARTY_ALLOCATIONS.replace("~", "~0").replace("/", "~1");

  private final KubernetesClient client;

  NodeAnnotations(KubernetesClient client) {
    this.client = client;
  }

  /** Replaces {@code expected} (null: the node has no such annotation yet) by {@code allocations}. */
  void write(String node, String expected, String allocations) {
    if (expected == null) {
      Map<String, Object> add =
          Map.of("metadata", Map.of("annotations", Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, allocations)));
      client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(add));
      return;
    }
    List<Map<String, String>> replace =
        List.of(
            Map.of("op", "test", "path", PATH, "value", expected),
            Map.of("op", "replace", "path", PATH, "value", allocations));
    client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON), Serialization.asJson(replace));
  }
}
