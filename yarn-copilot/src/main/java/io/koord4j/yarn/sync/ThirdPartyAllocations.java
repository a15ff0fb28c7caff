package io.koord4j.yarn.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The node annotation {@code node.koordinator.sh/thirdPartyAllocations} in Koordinator's format:
 * {@code {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{...}}]}}.
 * The copilot owns two entries: {@code hadoop-yarn}, what YARN containers use (as Koordinator's
 * copilot writes it), which the batch-resources controller takes off the node's batch resources,
 * and {@code hadoop-yarn-reserved}, the room YARN's NodeManager total lets it fill beyond that,
 * present only while there is some, which koord-scheduler keeps batch pods out of. Entries of other
 * allocators are kept.
 */
public final class ThirdPartyAllocations {
  public static final String YARN = "hadoop-yarn";
  public static final String YARN_RESERVED = YARN + WellKnown.RESERVED_ALLOCATION_SUFFIX;
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
    return yarnEntries(annotation).findAny().isPresent();
  }

  /** What YARN's entries hold together, in batch units; zero without them. */
  public static BatchResources yarnHeld(String annotation) {
    return yarnEntries(annotation)
        .map(allocation -> allocation.path("resources"))
        .map(resources -> new BatchResources(
            amount(resources.path(WellKnown.BATCH_CPU), WellKnown.BATCH_CPU),
            amount(resources.path(WellKnown.BATCH_MEMORY), WellKnown.BATCH_MEMORY)))
        .reduce(BatchResources.ZERO, BatchResources::plus);
  }

  private static Stream<JsonNode> yarnEntries(String annotation) {
    return StreamSupport.stream(parse(annotation).withArray("allocations").spliterator(), false)
        .filter(allocation -> YARN_ENTRIES.contains(allocation.path("name").asText()));
  }

  /** An entry's amount; one that is missing or unreadable counts as nothing. */
  private static long amount(JsonNode value, String resource) {
    try {
      return value.isMissingNode()
          ? 0
          : ResourceQuantities.baseUnits(resource, ResourceQuantities.amount(value.asText(), resource));
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
