package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * The pod's {@code nodeSelector} and its required node affinity: every selector label must match,
 * and at least one affinity term must match in full. Scores a node by the summed weights of the
 * preferred terms it matches.
 */
public final class NodeAffinity extends BasePlugin implements FilterPlugin, ScorePlugin {

  public static final String NAME = "NodeAffinity";
  static final String REASON = "node(s) didn't match Pod's node affinity/selector";

  public NodeAffinity() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED));
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    Map<String, String> labels = node.labels();
    return selected(pod.getSpec().getNodeSelector(), labels)
            && matchesRequiredAffinity(pod, node.name(), labels)
        ? Status.SUCCESS
        : Status.unresolvable(REASON);
  }

  /** A loop rather than a stream: this runs for every node a pod is filtered on. */
  private static boolean selected(Map<String, String> selector, Map<String, String> labels) {
    if (selector != null) {
      for (Map.Entry<String, String> required : selector.entrySet()) {
        if (!required.getValue().equals(labels.get(required.getKey()))) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Affinity affinity = pod.getSpec().getAffinity();
    if (affinity == null || affinity.getNodeAffinity() == null) {
      return 0;
    }
    Map<String, String> labels = node.labels();
    return affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().stream()
        .filter(p -> matches(p.getPreference(), node.name(), labels))
        .mapToLong(PreferredSchedulingTerm::getWeight)
        .sum();
  }

  @Override
  public void normalize(long[] scores) {
    ScorePlugin.scaleToMax(scores, false);
  }

  private static boolean matchesRequiredAffinity(Pod pod, String nodeName, Map<String, String> labels) {
    Affinity affinity = pod.getSpec().getAffinity();
    NodeSelector required =
        affinity == null || affinity.getNodeAffinity() == null
            ? null
            : affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required == null) {
      return true;
    }
    return required.getNodeSelectorTerms().stream()
        .anyMatch(term -> matches(term, nodeName, labels));
  }

  /** A term with no requirements matches nothing, as in Kubernetes. */
  private static boolean matches(NodeSelectorTerm term, String nodeName, Map<String, String> labels) {
    List<NodeSelectorRequirement> expressions = term.getMatchExpressions();
    List<NodeSelectorRequirement> fields = term.getMatchFields();
    if (expressions.isEmpty() && fields.isEmpty()) {
      return false;
    }
    return expressions.stream().allMatch(r -> matches(r, labels.get(r.getKey())))
        && fields.stream()
            .allMatch(
                r -> r.getKey().equals("metadata.name") && matches(r, nodeName));
  }

  private static boolean matches(NodeSelectorRequirement requirement, String value) {
    List<String> values = requirement.getValues();
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      case "Gt" -> compare(value, values) > 0;
      case "Lt" -> compare(value, values) < 0;
      default -> false;
    };
  }

  /** Sign of {@code value − values[0]} as integers; 0 (no match) when either is not a number. */
  private static int compare(String value, List<String> values) {
    try {
      return Long.compare(Long.parseLong(value), Long.parseLong(values.get(0)));
    } catch (NumberFormatException | NullPointerException | IndexOutOfBoundsException e) {
      return 0;
    }
  }
}
