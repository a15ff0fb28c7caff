package io.koord4j.api.device;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** The devices of one node (GPUs, RDMA NICs, FPGAs); named after the node, which owns it. */
@Group(Device.GROUP)
@Version(Device.VERSION)
@Kind("Device")
@Plural("devices")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class Device extends CustomResource<DeviceSpec, DeviceStatus> {
  public static final String GROUP = "scheduling.koordinator.sh";
  public static final String VERSION = "v1alpha1";
}
