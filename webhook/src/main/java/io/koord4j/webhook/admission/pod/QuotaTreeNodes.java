package io.koord4j.webhook.admission.pod;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.quota.kube.QuotaResolver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The nodes a pod's quota tree may use, as Koordinator's pod webhook finds them: the pod's quota
 * (its {@code quota.scheduling.koordinator.sh/name} label, else the quota of its namespace, as the
 * schedulers resolve it) carries a {@code tree-id}; the tree's root quota, which an
 * ElasticQuotaProfile keeps, names that profile ({@code q/profile}, in the root's namespace); the
 * profile's {@code spec.nodeSelector} selects the tree's nodes. A pod whose quota does not exist,
 * has no tree id, or whose tree no profile keeps, may use any node.
 */
final class QuotaTreeNodes {
  private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private QuotaTreeNodes() {}

  /** The profile whose tree the pod's quota belongs to, if any. */
  static Optional<ElasticQuotaProfile> profileOf(
      Pod pod, Collection<ElasticQuota> quotas, Collection<ElasticQuotaProfile> profiles) {
    Map<String, ElasticQuota> byName = quotas.stream()
        .collect(Collectors.toMap(q -> q.getMetadata().getName(), Function.identity(), (a, b) -> a));
    ElasticQuota quota = byName.get(QuotaResolver.resolve(pod, byName));
    String treeId = quota == null ? null : ElasticQuotaSpecs.labels(quota).get(WellKnown.QUOTA_TREE_ID);
    if (treeId == null || treeId.isBlank()) {
      return Optional.empty();
    }
    return quotas.stream()
        .filter(root -> "true".equals(ElasticQuotaSpecs.labels(root).get(WellKnown.QUOTA_IS_ROOT)))
        .filter(root -> treeId.equals(ElasticQuotaSpecs.labels(root).get(WellKnown.QUOTA_TREE_ID)))
        .flatMap(root -> profiles.stream().filter(profile -> keeps(profile, root)))
        .findFirst();
  }

  /**
   * The profile's node selector as node selector requirements, all of which a node must meet.
   *
   * @throws IllegalArgumentException naming the profile and field when an operator has no node
   *     selector counterpart
   */
  static List<NodeSelectorRequirement> requirements(ElasticQuotaProfile profile) {
    LabelSelector selector = profile.getSpec().getNodeSelector();
    List<NodeSelectorRequirement> requirements = new ArrayList<>();
    new TreeMap<>(Objects.requireNonNullElse(selector.getMatchLabels(), Map.<String, String>of()))
        .forEach((key, value) -> requirements.add(requirement(key, "In", List.of(value))));
    List<LabelSelectorRequirement> expressions =
        Objects.requireNonNullElse(selector.getMatchExpressions(), List.of());
    for (int i = 0; i < expressions.size(); i++) {
      LabelSelectorRequirement expression = expressions.get(i);
      if (!OPERATORS.contains(expression.getOperator())) {
        throw new IllegalArgumentException("ElasticQuotaProfile " + profile.getMetadata().getNamespace() + "/"
            + profile.getMetadata().getName() + ": spec.nodeSelector.matchExpressions[" + i + "].operator \""
            + expression.getOperator() + "\" must be one of In, NotIn, Exists, DoesNotExist");
      }
      requirements.add(requirement(expression.getKey(), expression.getOperator(), expression.getValues()));
    }
    return requirements;
  }

  private static boolean keeps(ElasticQuotaProfile profile, ElasticQuota root) {
    return profile.getSpec() != null
        && profile.getSpec().getNodeSelector() != null
        && profile.getMetadata().getNamespace().equals(root.getMetadata().getNamespace())
        && profile.getMetadata().getName().equals(ElasticQuotaSpecs.labels(root).get(WellKnown.QUOTA_PROFILE))
        && root.getMetadata().getName().equals(profile.getSpec().getQuotaName());
  }

  private static NodeSelectorRequirement requirement(String key, String operator, List<String> values) {
    NodeSelectorRequirementBuilder requirement = new NodeSelectorRequirementBuilder().withKey(key).withOperator(operator);
    return (values == null || values.isEmpty() ? requirement : requirement.withValues(values)).build();
  }
}
