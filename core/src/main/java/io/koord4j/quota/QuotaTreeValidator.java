package io.koord4j.quota;

import io.koord4j.quota.QuotaViolation.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** Checks a set of quota specs against Koordinator's ElasticQuota tree rules. */
final class QuotaTreeValidator {

  private final Map<String, QuotaSpec> byName = new HashMap<>();
  private final Map<String, List<QuotaSpec>> childrenByParent = new HashMap<>();
  private final List<QuotaViolation> violations = new ArrayList<>();
  private final QuotaTree.AmountFormat format;

  private QuotaTreeValidator(QuotaTree.AmountFormat format) {
    this.format = format;
  }

  /** Every broken rule, ordered by quota; empty when the tree is valid. */
  static List<QuotaViolation> violations(
      Collection<QuotaSpec> specs, QuotaTree.AmountFormat format) {
    QuotaTreeValidator validator = new QuotaTreeValidator(format);
    validator.index(specs);
    for (QuotaSpec spec : validator.byName.values()) {
      validator.checkAmounts(spec);
      validator.checkParent(spec);
    }
    validator.childrenByParent.forEach(validator::checkChildrenMin);
    validator.violations.sort(Comparator.comparing(QuotaViolation::toString));
    return List.copyOf(validator.violations);
  }

  private void index(Collection<QuotaSpec> specs) {
    for (QuotaSpec spec : specs) {
      if (spec.name().isBlank()) {
        violations.add(new QuotaViolation("", Field.NAME, "", "a quota has an empty name"));
      } else if (spec.name().equals(QuotaTree.ROOT)) {
        report(spec, Field.NAME, "", "the name is reserved for the implicit root quota");
      } else if (byName.putIfAbsent(spec.name(), spec) != null) {
        report(spec, Field.NAME, "", "the name is used by more than one quota");
      } else if (!isRoot(spec.parent())) {
        childrenByParent.computeIfAbsent(spec.parent(), p -> new ArrayList<>()).add(spec);
      }
    }
  }

  private void checkAmounts(QuotaSpec spec) {
    checkNotNegative(spec, Field.MIN, "min", spec.min());
    checkNotNegative(spec, Field.MAX, "max", spec.max());
    checkNotNegative(spec, Field.SHARED_WEIGHT, "shared-weight", spec.sharedWeight());
    checkNotNegative(spec, Field.GUARANTEED, "guaranteed", spec.guaranteed());
    for (String resource : spec.min().resourceNames()) {
      if (!spec.max().has(resource)) {
        report(spec, Field.MIN, resource, "min names " + resource + ", which max does not");
      } else if (spec.min().get(resource) > spec.max().get(resource)) {
        report(
            spec,
            Field.MIN,
            resource,
            "min "
                + resource
                + " ("
                + amount(resource, spec.min())
                + ") exceeds max ("
                + amount(resource, spec.max())
                + ")");
      }
    }
  }

  private void checkNotNegative(
      QuotaSpec spec, Field field, String fieldName, ResourceVector amounts) {
    for (String resource : amounts.resourceNames()) {
      if (amounts.get(resource) < 0) {
        report(
            spec,
            field,
            resource,
            fieldName + " " + resource + " is negative (" + amount(resource, amounts) + ")");
      }
    }
  }

  private void checkParent(QuotaSpec spec) {
    if (isRoot(spec.parent())) {
      return;
    }
    QuotaSpec parent = byName.get(spec.parent());
    if (parent == null) {
      report(spec, Field.PARENT, "", "parent \"" + spec.parent() + "\" does not exist");
      return;
    }
    if (!parent.isParent()) {
      report(
          spec,
          Field.PARENT,
          "",
          "parent \"" + parent.name() + "\" is not a parent quota (is-parent is not \"true\")");
    }
    for (String resource : spec.max().resourceNames()) {
      if (!parent.max().has(resource)) {
        report(
            spec,
            Field.MAX,
            resource,
            "max names " + resource + ", which the max of its parent \"" + parent.name()
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
          report(
              spec,
              Field.PARENT,
              "",
              "its parent chain loops back to it (" + String.join(" -> ", chain) + " -> "
                  + spec.name() + ")");
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
        report(
            parent,
            Field.MIN,
            resource,
            "its children's min "
                + resource
                + " sums to "
                + amount(resource, sum)
                + ", above its own min ("
                + amount(resource, parent.min())
                + ")");
      }
    }
  }

  private static boolean isRoot(String parent) {
    return parent.isEmpty() || parent.equals(QuotaTree.ROOT);
  }

  private void report(QuotaSpec spec, Field field, String resource, String rule) {
    violations.add(new QuotaViolation(spec.name(), field, resource, rule));
  }

  private String amount(String resource, ResourceVector amounts) {
    return format.format(resource, amounts.get(resource));
  }
}
