package io.koord4j.yarn.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.koord4j.api.WellKnown;

/**
 * The node annotation {@code node.koordinator.sh/thirdPartyAllocations} in Koordinator's format:
 * {@code {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{...}}]}}.
 * Only the {@code hadoop-yarn} entry is this copilot's; entries of other allocators are kept as they
 * are.
 */
public final class ThirdPartyAllocations {
  public static final String YARN = "hadoop-yarn";
  public static final String BATCH_PRIORITY = "koord-batch";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ThirdPartyAllocations() {}

  /**
   * The annotation with YARN's entry set to {@code used}. An annotation that is not valid JSON of
   * this shape is replaced: the copilot owns the key's YARN entry and cannot keep what it cannot
   * read.
   */
  public static String withYarn(String annotation, YarnResources used) {
    ObjectNode root = parse(annotation);
    ArrayNode allocations = root.withArray("allocations");
    ObjectNode entry = yarnEntry(allocations);
    if (entry == null) {
      entry = allocations.addObject();
    }
    entry.removeAll();
    entry.put("name", YARN);
    entry.put("priority", BATCH_PRIORITY);
    BatchResources batch = used.toBatch();
    ObjectNode resources = entry.putObject("resources");
    resources.put(WellKnown.BATCH_CPU, Long.toString(batch.milliCpu()));
    resources.put(WellKnown.BATCH_MEMORY, Long.toString(batch.memoryBytes()));
    return root.toString();
  }

  /** Whether the annotation has an entry of YARN's. */
  public static boolean hasYarn(String annotation) {
    return annotation != null && yarnEntry(parse(annotation).withArray("allocations")) != null;
  }

  private static ObjectNode yarnEntry(ArrayNode allocations) {
    for (JsonNode allocation : allocations) {
      if (allocation.isObject() && YARN.equals(allocation.path("name").asText())) {
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
