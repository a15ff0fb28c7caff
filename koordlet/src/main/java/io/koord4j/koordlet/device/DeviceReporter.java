package io.koord4j.koordlet.device;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import java.util.List;
import java.util.Map;

/** Publishes the node's GPUs as its Device object and labels the node with their model and vendor. */
public record DeviceReporter(KubernetesClient client, GpuInventory inventory) {
  static final String FIELD_MANAGER = "koordlet";

  /** One report; a node without GPUs gets no Device. */
  public void report(Node node) {
    List<GpuInfo> gpus = inventory.gpus();
    if (gpus.isEmpty()) {
      return;
    }
    String nodeName = node.getMetadata().getName();
    Device device = DeviceObjects.build(nodeName, gpus, inventory);
    device.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Node").withName(nodeName).withUid(node.getMetadata().getUid()).build()));
    client.resource(device).forceConflicts().fieldManager(FIELD_MANAGER).serverSideApply();
    Map<String, Object> labels = Map.of(
        WellKnown.GPU_MODEL, DeviceObjects.model(gpus.get(0).productName()),
        WellKnown.GPU_VENDOR, inventory.vendor());
    client.nodes().withName(nodeName).patch(
        PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("metadata", Map.of("labels", labels))));
  }
}
