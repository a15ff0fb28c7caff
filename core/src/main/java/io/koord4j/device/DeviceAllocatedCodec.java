package io.koord4j.device;

import static io.koord4j.api.WellKnown.GPU_CORE;
import static io.koord4j.api.WellKnown.GPU_MEMORY;
import static io.koord4j.api.WellKnown.GPU_MEMORY_RATIO;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceNames;
import io.koord4j.quantity.ResourceQuantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pod annotation {@code scheduling.koordinator.sh/device-allocated}: {@code {"gpu": [{"minor":
 * 0, "id": "GPU-…", "resources": {"koordinator.sh/gpu-core": "100",
 * "koordinator.sh/gpu-memory-ratio": "100", "koordinator.sh/gpu-memory": "80Gi"}}]}}. Other device
 * types (rdma, fpga) are ignored when reading.
 */
public final class DeviceAllocatedCodec {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GPU = "gpu";

  private DeviceAllocatedCodec() {}

  static String render(GpuAllocation allocation) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode gpus = root.putArray(GPU);
    for (AllocatedGpu gpu : allocation.gpus()) {
      ObjectNode entry = gpus.addObject().put("minor", gpu.minor());
      if (gpu.uuid() != null) {
        entry.put("id", gpu.uuid());
      }
      ObjectNode resources = entry.putObject("resources");
      GpuShare share = gpu.share();
      // A pod that asked only for memory holds no core, and Koordinator writes none.
      if (share.corePercent() > 0) {
        resources.put(GPU_CORE, Integer.toString(share.corePercent()));
      }
      resources.put(GPU_MEMORY_RATIO, Integer.toString(share.memoryRatioPercent()));
      resources.put(GPU_MEMORY, ResourceQuantities.bytes(share.memoryBytes()));
    }
    return root.toString();
  }

  /**
   * The GPUs a pod holds on {@code inventory}'s node. Memory given only as a ratio or only in bytes
   * is completed from the GPU's memory size.
   *
   * @param podKey {@code namespace/name}, for errors
   */
  public static GpuAllocation parse(String podKey, String json, NodeGpuInventory inventory) {
    String where = "pod " + podKey + ": annotation " + WellKnown.DEVICE_ALLOCATED;
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidDeviceSpecException(where + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new InvalidDeviceSpecException(where + " must be a JSON object keyed by device type");
    }
    JsonNode gpus = root.path(GPU);
    if (!gpus.isMissingNode() && !gpus.isArray()) {
      throw new InvalidDeviceSpecException(where + ": \"gpu\" must be a list");
    }
    List<AllocatedGpu> result = new ArrayList<>();
    for (JsonNode entry : gpus) {
      result.add(allocatedGpu(where, entry, inventory));
    }
    return new GpuAllocation(result);
  }

  private static AllocatedGpu allocatedGpu(String where, JsonNode entry, NodeGpuInventory inventory) {
    JsonNode minorNode = entry.get("minor");
    if (minorNode == null || !minorNode.isIntegralNumber()) {
      throw new InvalidDeviceSpecException(where + ": every GPU entry needs an integer \"minor\"");
    }
    int minor = minorNode.intValue();
    GpuDevice device =
        inventory
            .device(minor)
            .orElseThrow(
                () ->
                    new InvalidDeviceSpecException(
                        where + ": node " + inventory.nodeName() + " has no GPU with minor " + minor));
    Map<String, JsonNode> written = new TreeMap<>();
    entry.path("resources").fields().forEachRemaining(f -> written.put(f.getKey(), f.getValue()));
    Map<String, JsonNode> resources = ResourceNames.current(written); // older: kubernetes.io/gpu-*
    String at = where + ": GPU " + minor + " resource ";
    long core = amount(at + GPU_CORE, resources.get(GPU_CORE));
    long ratio = amount(at + GPU_MEMORY_RATIO, resources.get(GPU_MEMORY_RATIO));
    long bytes = amount(at + GPU_MEMORY, resources.get(GPU_MEMORY));
    if (ratio < 0 && bytes < 0) {
      throw new InvalidDeviceSpecException(
          where + ": GPU " + minor + " needs " + GPU_MEMORY_RATIO + " or " + GPU_MEMORY);
    }
    int corePercent = (int) Math.max(core, 0);
    GpuShare share =
        ratio >= 0 && bytes >= 0
            ? new GpuShare(corePercent, (int) ratio, bytes)
            : (ratio >= 0 ? MemoryRequest.ratio((int) ratio) : MemoryRequest.bytes(bytes))
                .on(device, corePercent);
    String uuid = entry.hasNonNull("id") ? entry.get("id").asText() : device.uuid();
    return new AllocatedGpu(minor, uuid, share);
  }

  /** The amount, -1 when absent; Koordinator has written both numbers and quantity strings. */
  private static long amount(String what, JsonNode value) {
    if (value == null || value.isNull()) {
      return -1;
    }
    return ResourceQuantities.wholeNumber(what, value.asText(), InvalidDeviceSpecException::new);
  }
}
