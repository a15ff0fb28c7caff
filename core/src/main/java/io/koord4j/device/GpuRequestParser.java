package io.koord4j.device;

import static io.koord4j.api.WellKnown.GPU_CORE;
import static io.koord4j.api.WellKnown.GPU_MEMORY;
import static io.koord4j.api.WellKnown.GPU_MEMORY_RATIO;
import static io.koord4j.api.WellKnown.GPU_SHARED;
import static io.koord4j.api.WellKnown.KOORD_GPU;
import static io.koord4j.api.WellKnown.NVIDIA_GPU;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads a pod's GPU resources the way Koordinator's DeviceShare plugin does:
 *
 * <ul>
 *   <li>{@code nvidia.com/gpu: N} or {@code koordinator.sh/gpu: 100·N}: N whole GPUs;
 *   <li>{@code koordinator.sh/gpu: X} with X &lt; 100: X % core and memory of one GPU;
 *   <li>{@code gpu-core} with {@code gpu-memory-ratio} or {@code gpu-memory}: a share of one GPU,
 *       or of several when the amounts are above 100 %;
 *   <li>{@code gpu.shared: N} with core and memory: N GPUs, each giving 1/N of the amounts.
 * </ul>
 *
 * Percentages above 100 must be whole GPUs (multiples of 100), since one GPU gives at most 100 %.
 */
final class GpuRequestParser {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> GPU_RESOURCES =
      List.of(NVIDIA_GPU, KOORD_GPU, GPU_CORE, GPU_MEMORY_RATIO, GPU_MEMORY, GPU_SHARED);

  private GpuRequestParser() {}

  static Optional<GpuRequest> parse(
      String podKey, Map<String, String> requests, Map<String, String> annotations) {
    String where = "pod " + podKey + ": ";
    Map<String, Long> amounts = amounts(where, requests);
    if (amounts.isEmpty()) {
      return Optional.empty();
    }
    GpuRequest resources = fromResources(where, amounts);
    TopologyScope scope = requiredScope(where, annotations.get(WellKnown.DEVICE_ALLOCATE_HINT));
    if (scope == TopologyScope.DEVICE && resources.count() > 1) {
      throw new InvalidDeviceSpecException(
          where + "annotation " + WellKnown.DEVICE_ALLOCATE_HINT
              + ": requiredTopologyScope Device holds one GPU, but the pod asks for " + resources.count());
    }
    JsonNode spec = object(where, WellKnown.GPU_PARTITION_SPEC, annotations.get(WellKnown.GPU_PARTITION_SPEC));
    return Optional.of(
        new GpuRequest(
            resources.count(),
            resources.corePercent(),
            resources.memory(),
            scope,
            allocatePolicy(where, spec),
            ringBusBandwidth(where, spec)));
  }

  /** The GPU resources asked for, zeros left out. */
  private static Map<String, Long> amounts(String where, Map<String, String> requests) {
    Map<String, Long> amounts = new TreeMap<>();
    for (String resource : GPU_RESOURCES) {
      String text = requests.get(resource);
      if (text != null) {
        long amount =
            ResourceQuantities.wholeNumber(
                where + "resource " + resource, text, InvalidDeviceSpecException::new);
        if (amount > 0) {
          amounts.put(resource, amount);
        }
      }
    }
    return amounts;
  }

  private static GpuRequest fromResources(String where, Map<String, Long> amounts) {
    if (amounts.containsKey(NVIDIA_GPU)) {
      requireAlone(where, NVIDIA_GPU, amounts);
      return GpuRequest.wholeGpus(Math.toIntExact(amounts.get(NVIDIA_GPU)));
    }
    if (amounts.containsKey(KOORD_GPU)) {
      requireAlone(where, KOORD_GPU, amounts);
      long percent = amounts.get(KOORD_GPU);
      int count = gpuCount(where, KOORD_GPU, percent);
      return share(count, percent / count, MemoryRequest.ratio((int) (percent / count)));
    }
    if (!amounts.containsKey(GPU_MEMORY_RATIO) && !amounts.containsKey(GPU_MEMORY)) {
      throw new InvalidDeviceSpecException(
          where + "resource " + amounts.keySet().iterator().next() + " needs "
              + GPU_MEMORY_RATIO + " or " + GPU_MEMORY + " as well");
    }
    if (amounts.containsKey(GPU_MEMORY_RATIO) && amounts.containsKey(GPU_MEMORY)) {
      throw new InvalidDeviceSpecException(
          where + "resources " + GPU_MEMORY_RATIO + " and " + GPU_MEMORY + " exclude each other");
    }
    int count =
        amounts.containsKey(GPU_SHARED)
            ? Math.toIntExact(amounts.get(GPU_SHARED))
            : percentGpuCount(where, amounts);
    long core = perGpu(where, GPU_CORE, amounts, count);
    MemoryRequest memory =
        amounts.containsKey(GPU_MEMORY_RATIO)
            ? MemoryRequest.ratio((int) perGpu(where, GPU_MEMORY_RATIO, amounts, count))
            : MemoryRequest.bytes(amounts.get(GPU_MEMORY) / count);
    return share(count, core, memory);
  }

  private static GpuRequest share(int count, long corePercent, MemoryRequest memory) {
    return new GpuRequest(count, (int) corePercent, memory, null, PartitionAllocatePolicy.BEST_EFFORT, 0);
  }

  private static void requireAlone(String where, String resource, Map<String, Long> amounts) {
    String others =
        amounts.keySet().stream().filter(name -> !name.equals(resource)).collect(Collectors.joining(", "));
    if (!others.isEmpty()) {
      throw new InvalidDeviceSpecException(
          where + "resource " + resource + " cannot be combined with " + others);
    }
  }

  /** How many GPUs a percentage asks for; above 100 it must be a multiple of 100. */
  private static int gpuCount(String where, String resource, long percent) {
    if (percent <= 100) {
      return 1;
    }
    if (percent % 100 != 0) {
      throw new InvalidDeviceSpecException(
          where + "resource " + resource + ": " + percent
              + " % is more than one GPU; shares above 100 % must be whole GPUs (a multiple of 100)");
    }
    return Math.toIntExact(percent / 100);
  }

  /** Core and memory ratio above 100 % ask for whole GPUs, and must agree on how many. */
  private static int percentGpuCount(String where, Map<String, Long> amounts) {
    int count = 1;
    for (String resource : List.of(GPU_CORE, GPU_MEMORY_RATIO)) {
      Long percent = amounts.get(resource);
      int asked = percent == null ? 1 : gpuCount(where, resource, percent);
      if (asked > 1 && count > 1 && asked != count) {
        throw new InvalidDeviceSpecException(
            where + "resources " + GPU_CORE + " and " + GPU_MEMORY_RATIO
                + " ask for different numbers of whole GPUs");
      }
      count = Math.max(count, asked);
    }
    return count;
  }

  /** The amount each of {@code count} GPUs gives: an even split of at most 100 %. */
  private static long perGpu(String where, String resource, Map<String, Long> amounts, int count) {
    long total = amounts.getOrDefault(resource, 0L);
    if (total % count != 0) {
      throw new InvalidDeviceSpecException(
          where + "resource " + resource + ": " + total + " does not split evenly over " + count + " GPUs");
    }
    if (total / count > 100) {
      throw new InvalidDeviceSpecException(
          where + "resource " + resource + ": " + total + " over " + count + " GPUs is "
              + total / count + " % per GPU; one GPU gives at most 100 %");
    }
    return total / count;
  }

  private static TopologyScope requiredScope(String where, String json) {
    JsonNode gpu = object(where, WellKnown.DEVICE_ALLOCATE_HINT, json).path("gpu");
    return oneOf(
        TopologyScope.values(), TopologyScope::jsonName, gpu.get("requiredTopologyScope"), null,
        where + "annotation " + WellKnown.DEVICE_ALLOCATE_HINT + ": requiredTopologyScope");
  }

  private static PartitionAllocatePolicy allocatePolicy(String where, JsonNode spec) {
    return oneOf(
        PartitionAllocatePolicy.values(), PartitionAllocatePolicy::jsonName, spec.get("allocatePolicy"),
        PartitionAllocatePolicy.BEST_EFFORT,
        where + "annotation " + WellKnown.GPU_PARTITION_SPEC + ": allocatePolicy");
  }

  /** The constant whose JSON name the value holds; {@code absent} when the value is missing or empty. */
  private static <E> E oneOf(E[] constants, Function<E, String> jsonName, JsonNode value, E absent, String field) {
    if (value == null || value.asText().isEmpty()) {
      return absent;
    }
    return Arrays.stream(constants)
        .filter(constant -> jsonName.apply(constant).equals(value.asText()))
        .findFirst()
        .orElseThrow(() -> new InvalidDeviceSpecException(
            field + " \"" + value.asText() + "\" is not one of "
                + Arrays.stream(constants).map(jsonName).collect(Collectors.joining(", "))));
  }

  private static long ringBusBandwidth(String where, JsonNode spec) {
    JsonNode value = spec.get("ringBusBandwidth");
    return value == null
        ? 0
        : ResourceQuantities.wholeNumber(
            where + "annotation " + WellKnown.GPU_PARTITION_SPEC + ": ringBusBandwidth",
            value.asText(),
            InvalidDeviceSpecException::new);
  }

  /** The annotation's JSON object; an empty object when the annotation is absent. */
  private static JsonNode object(String where, String annotation, String json) {
    if (json == null || json.isBlank()) {
      return JSON.createObjectNode();
    }
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidDeviceSpecException(
          where + "annotation " + annotation + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new InvalidDeviceSpecException(where + "annotation " + annotation + " must be a JSON object");
    }
    return node;
  }
}
