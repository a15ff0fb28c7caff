package io.koord4j.quota;

import io.koord4j.quota.QuotaViolation.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Checks a set of quota specs against Koordinator's ElasticQuota tree rules. */
final class QuotaTreeValidator {

  /** The depth of a quota whose parent chain ends in a loop or at a missing parent. */
  private static final int UNREACHABLE = -1;

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
    validator.checkChains();
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
  }

  /**
   * Follows every parent chain once, without recursion or walking a chain twice, since a chain
   * may be thousands of quotas long: reports each loop on every quota in it, and each quota that
   * lies deeper than {@link QuotaTree#MAX_DEPTH} levels below the root where its branch first does.
   */
  private void checkChains() {
    Map<String, Integer> depths = new HashMap<>(); // below the root, or UNREACHABLE
    for (QuotaSpec spec : byName.values()) {
      List<QuotaSpec> chain = new ArrayList<>(); // spec and its ancestors of unknown depth
      Map<String, Integer> onChain = new HashMap<>();
      int above = UNREACHABLE; // the depth of the parent of the chain's last quota
      for (QuotaSpec current = spec; current != null; current = byName.get(current.parent())) {
        Integer known = depths.get(current.name());
        if (known != null) {
          above = known;
          break;
        }
        Integer seen = onChain.putIfAbsent(current.name(), chain.size());
        if (seen != null) {
          reportLoop(chain.subList(seen, chain.size()));
          break;
        }
        chain.add(current);
        if (isRoot(current.parent())) {
          above = 0;
          break;
        }
      }
      assignDepths(chain, above, depths);
    }
  }

  /** Depths down {@code chain} (child first), from the depth of its last quota's parent. */
  private void assignDepths(List<QuotaSpec> chain, int above, Map<String, Integer> depths) {
    for (int i = chain.size() - 1; i >= 0; i--) {
      int depth = above == UNREACHABLE ? UNREACHABLE : above + chain.size() - i;
      depths.put(chain.get(i).name(), depth);
      if (depth == QuotaTree.MAX_DEPTH + 1) {
        report(
            chain.get(i),
            Field.PARENT,
            "",
            "it lies deeper than the " + QuotaTree.MAX_DEPTH + " levels a quota tree may have"
                + " below the root");
      }
    }
  }

  /**
   * {@code loop} lists quotas each the child of the next, the last the child of the first. A loop
   * longer than a tree may be deep is counted rather than spelled out on each of its quotas.
   */
  private void reportLoop(List<QuotaSpec> loop) {
    for (int start = 0; start < loop.size(); start++) {
      report(loop.get(start), Field.PARENT, "", "its parent chain loops back to it (" + (
          loop.size() > QuotaTree.MAX_DEPTH ? "through " + loop.size() + " quotas" : path(loop, start))
          + ")");
    }
  }

  /** {@code a -> b -> a}: the loop from {@code start} round to it again. */
  private static String path(List<QuotaSpec> loop, int start) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i <= loop.size(); i++) {
      names.add(loop.get((start + i) % loop.size()).name());
    }
    return String.join(" -> ", names);
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
