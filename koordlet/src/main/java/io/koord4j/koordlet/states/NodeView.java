package io.koord4j.koordlet.states;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.slo.NodeSLO;
import java.util.List;
import java.util.Optional;

/** The cluster objects koordlet acts on: its Node, the pods on it and its NodeSLO. */
public interface NodeView {
  Optional<Node> node();

  List<Pod> pods();

  Optional<NodeSLO> nodeSlo();
}
