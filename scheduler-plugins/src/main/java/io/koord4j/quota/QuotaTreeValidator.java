package io.koord4j.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** Checks a set of quota specs against Koordinator's ElasticQuota tree rules. */
final class QuotaTreeValidator {

  private final Map<String, QuotaSpec> byName = new HashMap<>();
  private final Map<String, List<QuotaSpec>> childrenByParent = new HashMap<>();
  private final List<String> violations = new ArrayList<>();

  private QuotaTreeValidator() {}

  /** Every broken rule, one message each naming the quota; empty when the tree is valid. */
  static List<String> violations(Collection<QuotaSpec> specs) {
    QuotaTreeValidator validator = new QuotaTreeValidator();
    validator.index(specs);
    for (QuotaSpec spec : validator.byName.values()) {
      validator.checkAmounts(spec);
      validator.checkParent(spec);
    }
    validator.childrenByParent.forEach(validator::checkChildrenMin);
    validator.violations.sort(null);
    return List.copyOf(validator.violations);
  }

  private void index(Collection<QuotaSpec> specs) {
    for (QuotaSpec spec : specs) {
      if (spec.name().isBlank()) {
        violations.add("a quota has an empty name");
      } else if (spec.name().equals(QuotaTree.ROOT)) {
        violations.add(quota(spec) + "the name is reserved for the implicit root quota");
      } else if (byName.putIfAbsent(spec.name(), spec) != null) {
        violations.add(quota(spec) + "the name is used by more than one quota");
      } else if (!isRoot(spec.parent())) {
        childrenByParent.computeIfAbsent(spec.parent(), p -> new ArrayList<>()).add(spec);
      }
    }
  }

  private void checkAmounts(QuotaSpec spec) {
    checkNotNegative(spec, "min", spec.min());
    checkNotNegative(spec, "max", spec.max());
    checkNotNegative(spec, "shared-weight", spec.sharedWeight());
    checkNotNegative(spec, "guaranteed", spec.guaranteed());
    for (String resource : spec.min().resourceNames()) {
      if (!spec.max().has(resource)) {
        violations.add(quota(spec) + "min names " + resource + ", which max does not");
      } else if (spec.min().get(resource) > spec.max().get(resource)) {
        violations.add(
            quota(spec)
                + "min "
                + resource
                + " ("
                + spec.min().get(resource)
                + ") exceeds max ("
                + spec.max().get(resource)
                + ")");
      }
    }
  }

  private void checkNotNegative(QuotaSpec spec, String field, ResourceVector amounts) {
    for (String resource : amounts.resourceNames()) {
      if (amounts.get(resource) < 0) {
        violations.add(
            quota(spec) + field + " " + resource + " is negative (" + amounts.get(resource) + ")");
      }
    }
  }

  private void checkParent(QuotaSpec spec) {
    if (isRoot(spec.parent())) {
      return;
    }
    QuotaSpec parent = byName.get(spec.parent());
    if (parent == null) {
      violations.add(quota(spec) + "parent \"" + spec.parent() + "\" does not exist");
      return;
    }
    if (!parent.isParent()) {
      violations.add(
          quota(spec)
              + "parent \""
              + parent.name()
              + "\" is not a parent quota (is-parent is not \"true\")");
    }
    for (String resource : spec.max().resourceNames()) {
      if (!parent.max().has(resource)) {
        violations.add(
            quota(spec)
                + "max names "
                + resource
                + ", which the max of its parent \""
                + parent.name()
                + "\" does not");
      }
    }
    checkNoCycle(spec);
  }

  private void checkNoCycle(QuotaSpec spec) {
    LinkedHashSet<String> chain = new LinkedHashSet<>();
    chain.add(spec.name());
    QuotaSpec current = byName.get(spec.parent());
    while (current != null) {
      if (!chain.add(current.name())) {
        if (current.name().equals(spec.name())) {
          violations.add(
              quota(spec) + "its parent chain loops back to it (" + String.join(" -> ", chain)
                  + " -> " + spec.name() + ")");
        }
        return; // a loop that does not contain this quota is reported by its members
      }
      current = isRoot(current.parent()) ? null : byName.get(current.parent());
    }
  }

  private void checkChildrenMin(String parentName, List<QuotaSpec> children) {
    QuotaSpec parent = byName.get(parentName);
    if (parent == null) {
      return; // reported on each child as an unknown parent
    }
    ResourceVector sum = ResourceVector.EMPTY;
    for (QuotaSpec child : children) {
      sum = sum.add(child.min());
    }
    for (String resource : sum.resourceNames()) {
      if (sum.get(resource) > parent.min().get(resource)) {
        violations.add(
            quota(parent)
                + "its children's min "
                + resource
                + " sums to "
                + sum.get(resource)
                + ", above its own min ("
                + parent.min().get(resource)
                + ")");
      }
    }
  }

  private static boolean isRoot(String parent) {
    return parent.isEmpty() || parent.equals(QuotaTree.ROOT);
  }

  private static String quota(QuotaSpec spec) {
    return "quota \"" + spec.name() + "\": ";
  }
}
