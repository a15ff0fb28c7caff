package io.koord4j.device;

import com.fasterxml.jackson.databind.JsonNode;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The partitions of a node by GPU count, from the Device annotation {@code
 * scheduling.koordinator.sh/gpu-partitions}: {@code {"4": [{"minors": [0,1,2,3], "gpuLinkType":
 * "NVLink", "ringBusBandwidth": "400Gi", "allocationScore": 1}, ...], ...}}.
 */
public final class GpuPartitionTable {

  public static final GpuPartitionTable NONE = new GpuPartitionTable(new TreeMap<>());


  /** 8-GPU NVIDIA Hopper boards (H100, H800, H20): all eight, halves, pairs, singles. */
  private static final GpuPartitionTable HOPPER_8 =
      of(
          List.of(
              GpuPartition.nvlink(0, 1, 2, 3, 4, 5, 6, 7),
              GpuPartition.nvlink(0, 1, 2, 3),
              GpuPartition.nvlink(4, 5, 6, 7),
              GpuPartition.nvlink(0, 1),
              GpuPartition.nvlink(2, 3),
              GpuPartition.nvlink(4, 5),
              GpuPartition.nvlink(6, 7),
              GpuPartition.nvlink(0),
              GpuPartition.nvlink(1),
              GpuPartition.nvlink(2),
              GpuPartition.nvlink(3),
              GpuPartition.nvlink(4),
              GpuPartition.nvlink(5),
              GpuPartition.nvlink(6),
              GpuPartition.nvlink(7)));

  private static final Set<String> HOPPER_MODELS = Set.of("H100", "H800", "H20");

  /** Size to partitions, each list best allocation score first, then by first minor. */
  private final NavigableMap<Integer, List<GpuPartition>> bySize;

  private GpuPartitionTable(NavigableMap<Integer, List<GpuPartition>> bySize) {
    this.bySize = bySize;
  }

  public static GpuPartitionTable of(List<GpuPartition> partitions) {
    NavigableMap<Integer, List<GpuPartition>> bySize = new TreeMap<>();
    for (GpuPartition partition : partitions) {
      bySize.computeIfAbsent(partition.size(), size -> new ArrayList<>()).add(partition);
    }
    Comparator<GpuPartition> order =
        Comparator.comparingInt(GpuPartition::allocationScore)
            .reversed()
            .thenComparingInt(GpuPartition::firstMinor);
    bySize.replaceAll((size, list) -> list.stream().sorted(order).toList());
    return new GpuPartitionTable(Collections.unmodifiableNavigableMap(bySize));
  }

  /** The built-in table for a GPU model and count, or {@link #NONE} when there is none. */
  public static GpuPartitionTable builtIn(String model, int gpuCount) {
    return model != null && HOPPER_MODELS.contains(model) && gpuCount == 8 ? HOPPER_8 : NONE;
  }

  /**
   * Parses the annotation value.
   *
   * @param owner names the object in errors, e.g. {@code Device n1}
   */
  public static GpuPartitionTable parse(String owner, String json) {
    String where = owner + ": annotation " + WellKnown.GPU_PARTITIONS;
    JsonNode root = AnnotationJson.object(where, json, "a JSON object from GPU count to partitions");
    List<GpuPartition> partitions = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : root.properties()) {
      if (!entry.getValue().isArray()) {
        throw new InvalidDeviceSpecException(where + ": \"" + entry.getKey() + "\" must be a list");
      }
      for (JsonNode node : entry.getValue()) {
        GpuPartition partition = partition(where, node);
        if (!Integer.toString(partition.size()).equals(entry.getKey())) {
          throw new InvalidDeviceSpecException(
              where + ": partition " + partition.minors() + " is listed under \""
                  + entry.getKey() + "\" but has " + partition.size() + " GPUs");
        }
        partitions.add(partition);
      }
    }
    return of(partitions);
  }

  private static GpuPartition partition(String where, JsonNode node) {
    JsonNode minors = node.get("minors");
    if (minors == null || !minors.isArray() || minors.isEmpty()) {
      throw new InvalidDeviceSpecException(where + ": every partition needs a non-empty \"minors\" list");
    }
    List<Integer> list = new ArrayList<>();
    minors.forEach(
        minor -> {
          if (!minor.canConvertToInt() || !minor.isIntegralNumber()) {
            throw new InvalidDeviceSpecException(where + ": minor " + minor + " is not an integer");
          }
          list.add(minor.intValue());
        });
    JsonNode bandwidth = node.get("ringBusBandwidth");
    long ringBusBandwidth =
        bandwidth == null
            ? 0
            : ResourceQuantities.wholeNumber(
                where + ": ringBusBandwidth", bandwidth.asText(), InvalidDeviceSpecException::new);
    return new GpuPartition(
        list, node.path("gpuLinkType").asText(""), ringBusBandwidth, node.path("allocationScore").asInt(0));
  }

  public boolean isEmpty() {
    return bySize.isEmpty();
  }

  /** Best allocation score first. */
  public List<GpuPartition> partitionsOfSize(int size) {
    return bySize.getOrDefault(size, List.of());
  }

  /**
   * How many partitions of each size, largest first, are wholly free; singles are left out since
   * they only count free GPUs. Compared lexicographically: the larger, the better a placement
   * keeps big partitions for later pods.
   */
  int[] freeProfile(Set<Integer> freeMinors) {
    return bySize.descendingMap().entrySet().stream()
        .filter(entry -> entry.getKey() > 1)
        .mapToInt(entry -> (int) entry.getValue().stream().filter(p -> isFree(p, freeMinors)).count())
        .toArray();
  }

  /** The size of the largest wholly free partition, 0 when none is. */
  int largestFreeSize(Set<Integer> freeMinors) {
    return bySize.descendingMap().entrySet().stream()
        .filter(entry -> entry.getValue().stream().anyMatch(p -> isFree(p, freeMinors)))
        .mapToInt(Map.Entry::getKey)
        .findFirst()
        .orElse(0);
  }

  /** The largest partition size of at most {@code gpus}, 0 when none is that small. */
  int largestSizeUpTo(int gpus) {
    Integer size = bySize.floorKey(gpus);
    return size == null ? 0 : size;
  }

  static boolean isFree(GpuPartition partition, Set<Integer> freeMinors) {
    return freeMinors.containsAll(partition.minors());
  }
}
