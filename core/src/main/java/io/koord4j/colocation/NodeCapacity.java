package io.koord4j.colocation;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.Map;

/** A node's CPU and memory capacity and what is reserved for its system; no I/O. */
public record NodeCapacity(long cpuMilli, long memoryBytes, long reservedCpuMilli, long reservedMemoryBytes) {
  /** Koordinator's node annotation {"resources": {"cpu": ..., "memory": ...}, ...}. */
  public static final String RESERVATION_ANNOTATION = "node.koordinator.sh/reservation";

  /** Reserved is the larger of the kubelet's (capacity − allocatable) and the node annotation's. */
  public static NodeCapacity of(Node node) {
    Map<String, Quantity> capacity = node.getStatus() == null ? null : node.getStatus().getCapacity();
    Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
    long cpu = milli(capacity, "cpu", "status.capacity");
    long memory = bytes(capacity, "memory", "status.capacity");
    long kubeletCpu = allocatable == null || !allocatable.containsKey("cpu")
        ? 0 : cpu - milli(allocatable, "cpu", "status.allocatable");
    long kubeletMemory = allocatable == null || !allocatable.containsKey("memory")
        ? 0 : memory - bytes(allocatable, "memory", "status.allocatable");
    Map<String, Quantity> annotated = annotatedReservation(node);
    String reservation = "metadata.annotations[" + RESERVATION_ANNOTATION + "].resources";
    return new NodeCapacity(
        cpu,
        memory,
        Math.max(kubeletCpu, milli(annotated, "cpu", reservation)),
        Math.max(kubeletMemory, bytes(annotated, "memory", reservation)));
  }

  private static Map<String, Quantity> annotatedReservation(Node node) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(RESERVATION_ANNOTATION);
    if (value == null || value.isBlank()) {
      return Map.of();
    }
    try {
      JsonNode resources = Serialization.jsonMapper().readTree(value).path("resources");
      Map<String, Quantity> parsed = new java.util.HashMap<>();
      resources.properties().forEach(entry -> parsed.put(entry.getKey(), new Quantity(entry.getValue().asText())));
      return parsed;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(
          "node " + node.getMetadata().getName() + ": annotation " + RESERVATION_ANNOTATION + " is not valid JSON", e);
    }
  }

  private static long milli(Map<String, Quantity> values, String name, String where) {
    return amount(values, name, where).movePointRight(3).longValue();
  }

  private static long bytes(Map<String, Quantity> values, String name, String where) {
    return amount(values, name, where).longValue();
  }

  private static BigDecimal amount(Map<String, Quantity> values, String name, String where) {
    Quantity quantity = values == null ? null : values.get(name);
    return quantity == null ? BigDecimal.ZERO : ResourceQuantities.amount(quantity, where + "." + name);
  }
}
