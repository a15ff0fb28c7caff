package io.koord4j.api.slo;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** The QoS settings the node agent enforces on one node; named after the node. */
@Group(NodeMetric.GROUP)
@Version(NodeMetric.VERSION)
@Kind("NodeSLO")
@Plural("nodeslos")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class NodeSLO extends CustomResource<NodeSLOSpec, NodeSLOStatus> {}
