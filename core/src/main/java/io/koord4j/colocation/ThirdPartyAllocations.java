package io.koord4j.colocation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.util.List;
import java.util.Map;

/**
 * What other schedulers (YARN) hold of a node's batch resources, from its annotation {@code
 * node.koordinator.sh/thirdPartyAllocations}: {@code {"allocations": [{"name", "priority",
 * "resources": {"kubernetes.io/batch-cpu": ..., "kubernetes.io/batch-memory": ...}}]}}. Only
 * {@code koord-batch} entries count. Entries named {@code *-reserved} are room the third party may
 * still fill; the others are what it uses. No I/O.
 *
 * @param used what the third parties use, in batch-cpu (milli) and batch-memory (bytes)
 * @param reserved the room they may still fill beyond that
 */
public record ThirdPartyAllocations(ResourceVector used, ResourceVector reserved) {
  public static final ThirdPartyAllocations NONE =
      new ThirdPartyAllocations(ResourceVector.EMPTY, ResourceVector.EMPTY);

  private static final List<String> BATCH = List.of(WellKnown.BATCH_CPU, WellKnown.BATCH_MEMORY);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads the node's annotation.
   *
   * @throws IllegalArgumentException naming the node, the annotation and what is wrong with it
   */
  public static ThirdPartyAllocations of(String nodeName, Map<String, String> annotations) {
    String value = annotations == null ? null : annotations.get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    if (value == null || value.isBlank()) {
      return NONE;
    }
    String where = "node " + nodeName + ": annotation " + WellKnown.THIRD_PARTY_ALLOCATIONS;
    ResourceVector used = ResourceVector.EMPTY;
    ResourceVector reserved = ResourceVector.EMPTY;
    for (JsonNode allocation : read(where, value).path("allocations")) {
      if (PriorityClass.fromValue(allocation.path("priority").asText()) != PriorityClass.BATCH) {
        continue;
      }
      ResourceVector amount = batch(where, allocation.path("resources"));
      if (allocation.path("name").asText().endsWith(WellKnown.RESERVED_ALLOCATION_SUFFIX)) {
        reserved = reserved.add(amount);
      } else {
        used = used.add(amount);
      }
    }
    return new ThirdPartyAllocations(used, reserved);
  }

  /**
   * The part of a node's batch allocatable that third parties may still fill, and that a scheduler
   * therefore must not place pods into: the allocatable less (the node's origin record less every
   * {@code koord-batch} entry), never below zero. With koord4j's batch-resources controller, which
   * takes off only what third parties use, that is their reserved room; with one that takes off
   * every entry it is nothing; without an origin record (nothing takes third parties off) it is
   * every entry. Taking the origin record, not the allocatable, keeps the answer right while an
   * entry's amount moves from reserved to used before the controller has rewritten the allocatable.
   *
   * @param allocatable the node's allocatable in base units
   * @throws IllegalArgumentException when an annotation cannot be read
   */
  public static ResourceVector roomHeldFromPods(Node node, ResourceVector allocatable) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    if (annotations == null || !annotations.containsKey(WellKnown.THIRD_PARTY_ALLOCATIONS)) {
      return ResourceVector.EMPTY;
    }
    String name = node.getMetadata().getName();
    ThirdPartyAllocations allocations = of(name, annotations);
    ResourceVector batchAllocatable = ResourceVector.of(
        WellKnown.BATCH_CPU, allocatable.get(WellKnown.BATCH_CPU),
        WellKnown.BATCH_MEMORY, allocatable.get(WellKnown.BATCH_MEMORY));
    String origin = annotations.get(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE);
    String where = "node " + name + ": annotation " + WellKnown.ORIGIN_EXTENDED_ALLOCATABLE;
    ResourceVector before = origin == null ? batchAllocatable : batch(where, read(where, origin).path("resources"));
    ResourceVector forPods = before.subtract(allocations.used()).subtract(allocations.reserved())
        .max(ResourceVector.EMPTY);
    return batchAllocatable.subtract(forPods).max(ResourceVector.EMPTY);
  }

  private static JsonNode read(String where, String value) {
    try {
      return JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + " is not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static ResourceVector batch(String where, JsonNode resources) {
    ResourceVector amounts = ResourceVector.EMPTY;
    for (String resource : BATCH) {
      JsonNode value = resources.get(resource);
      if (value != null) {
        amounts = amounts.add(ResourceVector.of(resource, amount(where, resource, value.asText())));
      }
    }
    return amounts;
  }

  private static long amount(String where, String resource, String value) {
    return ResourceQuantities.amount(value, where + ": " + resource).longValue();
  }
}
