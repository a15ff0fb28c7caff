package io.koord4j.yarn.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import java.util.Set;

/**
 * The node annotation {@code node.koordinator.sh/thirdPartyAllocations} in Koordinator's format:
 * {@code {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{...}}]}}.
 * The copilot owns two entries: {@code hadoop-yarn}, what YARN containers use (as Koordinator's
 * copilot writes it), and {@code hadoop-yarn-reserved}, the room YARN's NodeManager total lets it
 * fill beyond that, present only while there is some. Entries of other allocators are kept.
 */
public final class ThirdPartyAllocations {
  public static final String YARN = "hadoop-yarn";
  public static final String YARN_RESERVED = "hadoop-yarn-reserved";
  public static final String BATCH_PRIORITY = "koord-batch";

  private static final Set<String> YARN_ENTRIES = Set.of(YARN, YARN_RESERVED);
  private static final ObjectMapper JSON = new ObjectMapper();

  private ThirdPartyAllocations() {}

  /**
   * The annotation with YARN's entries set to {@code used} and {@code reserved}. An annotation that
   * is not valid JSON of this shape is replaced: the copilot owns YARN's entries and cannot keep what
   * it cannot read.
   */
  public static String withYarn(String annotation, YarnResources used, YarnResources reserved) {
    ObjectNode root = parse(annotation);
    ArrayNode allocations = root.withArray("allocations");
    put(allocations, YARN, used);
    if (reserved.equals(YarnResources.ZERO)) {
      remove(allocations, YARN_RESERVED);
    } else {
      put(allocations, YARN_RESERVED, reserved);
    }
    return root.toString();
  }

  /** Whether the annotation has an entry of YARN's. */
  public static boolean hasYarn(String annotation) {
    return sum(annotation, Kind.YARN) != null;
  }

  /** What YARN's entries hold together, in batch units; zero without them. */
  public static BatchResources yarnHeld(String annotation) {
    BatchResources held = sum(annotation, Kind.YARN);
    return held == null ? BatchResources.ZERO : held;
  }

  /** What every {@code koord-batch} entry holds together: what the node's batch resources lose to third parties. */
  public static BatchResources batchHeld(String annotation) {
    BatchResources held = sum(annotation, Kind.BATCH);
    return held == null ? BatchResources.ZERO : held;
  }

  private enum Kind { YARN, BATCH }

  /** The sum of the entries of one kind, or null when there are none. */
  private static BatchResources sum(String annotation, Kind kind) {
    BatchResources sum = null;
    for (JsonNode allocation : parse(annotation).withArray("allocations")) {
      boolean counted = kind == Kind.YARN
          ? YARN_ENTRIES.contains(allocation.path("name").asText())
          : BATCH_PRIORITY.equals(allocation.path("priority").asText());
      if (counted) {
        JsonNode resources = allocation.path("resources");
        BatchResources entry = new BatchResources(
            amount(resources.path(WellKnown.BATCH_CPU)), amount(resources.path(WellKnown.BATCH_MEMORY)));
        sum = sum == null ? entry : sum.plus(entry);
      }
    }
    return sum;
  }

  /** An entry's amount; one that is missing or unreadable counts as nothing. */
  private static long amount(JsonNode value) {
    try {
      return value.isMissingNode() ? 0 : Quantity.getAmountInBytes(new Quantity(value.asText())).longValue();
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  private static void put(ArrayNode allocations, String name, YarnResources amount) {
    ObjectNode entry = entry(allocations, name);
    if (entry == null) {
      entry = allocations.addObject();
    }
    entry.removeAll();
    entry.put("name", name);
    entry.put("priority", BATCH_PRIORITY);
    BatchResources batch = amount.toBatch();
    ObjectNode resources = entry.putObject("resources");
    resources.put(WellKnown.BATCH_CPU, Long.toString(batch.milliCpu()));
    resources.put(WellKnown.BATCH_MEMORY, Long.toString(batch.memoryBytes()));
  }

  private static void remove(ArrayNode allocations, String name) {
    for (int i = allocations.size() - 1; i >= 0; i--) {
      if (name.equals(allocations.get(i).path("name").asText())) {
        allocations.remove(i);
      }
    }
  }

  private static ObjectNode entry(ArrayNode allocations, String name) {
    for (JsonNode allocation : allocations) {
      if (allocation.isObject() && name.equals(allocation.path("name").asText())) {
        return (ObjectNode) allocation;
      }
    }
    return null;
  }

  private static ObjectNode parse(String annotation) {
    if (annotation == null || annotation.isBlank()) {
      return JSON.createObjectNode();
    }
    try {
      JsonNode node = JSON.readTree(annotation);
      if (node instanceof ObjectNode object
          && (!object.has("allocations") || object.get("allocations").isArray())) {
        return object;
      }
    } catch (JsonProcessingException e) {
      // Replaced below: see withYarn.
    }
    return JSON.createObjectNode();
  }
}
