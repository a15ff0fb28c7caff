package io.koord4j.api.slo;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Resource usage of one node and its pods, reported by the node agent; named after the node. */
@Group(NodeMetric.GROUP)
@Version(NodeMetric.VERSION)
@Kind("NodeMetric")
@Plural("nodemetrics")
@AdditionalPrinterColumn(
    name = "Updated",
    jsonPath = ".status.updateTime",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class NodeMetric extends CustomResource<NodeMetricSpec, NodeMetricStatus> {
  public static final String GROUP = "slo.koordinator.sh";
  public static final String VERSION = "v1alpha1";
}
