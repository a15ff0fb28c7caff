package io.koord4j.manager.noderesource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.colocation.PriorityClass;
import java.util.Map;

/**
 * The node annotation {@code node.koordinator.sh/thirdPartyAllocations}: what other schedulers
 * (YARN) hold of the node's batch resources, {@code {"allocations": [{"name", "priority",
 * "resources": {"kubernetes.io/batch-cpu": ..., "kubernetes.io/batch-memory": ...}}]}}; no I/O.
 */
public final class ThirdPartyAllocations {
  private ThirdPartyAllocations() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The sum of the koord-batch allocations, as batch-cpu (milli) and batch-memory (bytes). */
  public static CpuMemory batch(String nodeName, Map<String, String> annotations) {
    String value = annotations == null ? null : annotations.get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    if (value == null || value.isBlank()) {
      return CpuMemory.ZERO;
    }
    String where = "node " + nodeName + ": annotation " + WellKnown.THIRD_PARTY_ALLOCATIONS;
    JsonNode root;
    try {
      root = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + " is not valid JSON: " + e.getOriginalMessage());
    }
    CpuMemory sum = CpuMemory.ZERO;
    for (JsonNode allocation : root.path("allocations")) {
      if (PriorityClass.fromValue(allocation.path("priority").asText()) != PriorityClass.BATCH) {
        continue;
      }
      JsonNode resources = allocation.path("resources");
      sum = sum.plus(new CpuMemory(
          amount(where, resources, WellKnown.BATCH_CPU), amount(where, resources, WellKnown.BATCH_MEMORY)));
    }
    return sum;
  }

  private static long amount(String where, JsonNode resources, String name) {
    JsonNode value = resources.get(name);
    if (value == null) {
      return 0;
    }
    try {
      return Quantity.getAmountInBytes(new Quantity(value.asText())).longValue();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + name + " \"" + value.asText() + "\" is not a quantity", e);
    }
  }
}
