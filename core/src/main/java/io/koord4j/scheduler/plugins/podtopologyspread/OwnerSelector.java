package io.koord4j.scheduler.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The selector kube-scheduler spreads a pod without constraints of its own by: the pods that the
 * services selecting it and its controller (ReplicationController, ReplicaSet or StatefulSet)
 * select, all their selectors together.
 */
public final class OwnerSelector {
  private OwnerSelector() {}

  /**
   * @param serviceSelectors the {@code spec.selector} of each service in the pod's namespace
   * @param controller the selector of the pod's controller, null when it has none of those kinds
   * @return null when nothing selects the pod, so that it is not spread by default
   */
  public static LabelSelector of(
      Map<String, String> podLabels, List<Map<String, String>> serviceSelectors, LabelSelector controller) {
    Map<String, String> matchLabels = new HashMap<>();
    for (Map<String, String> service : serviceSelectors) {
      if (service != null && podLabels.entrySet().containsAll(service.entrySet())) {
        matchLabels.putAll(service);
      }
    }
    List<LabelSelectorRequirement> expressions = new ArrayList<>();
    if (controller != null) {
      if (controller.getMatchLabels() != null) {
        matchLabels.putAll(controller.getMatchLabels());
      }
      if (controller.getMatchExpressions() != null) {
        expressions.addAll(controller.getMatchExpressions());
      }
    }
    return matchLabels.isEmpty() && expressions.isEmpty() ? null : new LabelSelector(expressions, matchLabels);
  }
}
