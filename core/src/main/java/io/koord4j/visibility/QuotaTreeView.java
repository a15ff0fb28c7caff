package io.koord4j.visibility;

import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code quota tree}: the ElasticQuota tree depth first, each quota with min, max, runtime (as the
 * manager publishes it), used, and what it borrows above min or lends below it.
 */
public final class QuotaTreeView {
  private static final int BAR = 20;

  private QuotaTreeView() {}

  /** One quota; amounts in Kubernetes notation, per resource the quota governs or uses. */
  public record QuotaNode(String name, String parent, int depth, List<ResourceFigures> resources) {}

  public record ResourceFigures(
      String resource, String min, String max, String runtime, String used, String borrowed,
      String lent, int usedPercentOfMax) {}

  public static List<QuotaNode> of(List<ElasticQuota> quotas) {
    Map<String, ElasticQuota> byName = quotas.stream()
        .filter(q -> !WellKnown.ROOT_QUOTA.equals(q.getMetadata().getName()))
        .collect(Collectors.toMap(q -> q.getMetadata().getName(), Function.identity(), (a, b) -> a));
    Map<String, QuotaSpec> specs = byName.values().stream()
        .collect(Collectors.toMap(q -> q.getMetadata().getName(), ElasticQuotaSpecs::from));
    List<QuotaNode> nodes = new ArrayList<>();
    specs.values().stream()
        .filter(spec -> !specs.containsKey(spec.parent()))
        .sorted(Comparator.comparing(QuotaSpec::name))
        .forEach(top -> walk(top, 0, specs, byName, nodes));
    return nodes;
  }

  public static String table(List<QuotaNode> nodes) {
    TextTable table = new TextTable("QUOTA", "RESOURCE", "MIN", "MAX", "RUNTIME", "USED", "BORROWED", "LENT", "USAGE (USED/MAX)");
    for (QuotaNode node : nodes) {
      String name = node.depth() == 0 ? node.name() : "  ".repeat(node.depth() - 1) + "└─ " + node.name();
      if (node.resources().isEmpty()) {
        table.row(name, "-", "", "", "", "", "", "", "");
      }
      for (ResourceFigures r : node.resources()) {
        table.row(name, r.resource(), r.min(), r.max(), r.runtime(), r.used(), r.borrowed(), r.lent(),
            bar(r.usedPercentOfMax()));
        name = "";
      }
    }
    return table.render();
  }

  public static String bar(int percent) {
    int filled = Math.min(BAR, Math.round(percent * BAR / 100f));
    return "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + "] " + percent + "%";
  }

  private static void walk(
      QuotaSpec spec, int depth, Map<String, QuotaSpec> specs, Map<String, ElasticQuota> quotas,
      List<QuotaNode> out) {
    out.add(new QuotaNode(spec.name(), spec.parent(), depth, figures(spec, quotas.get(spec.name()))));
    specs.values().stream()
        .filter(child -> child.parent().equals(spec.name()))
        .sorted(Comparator.comparing(QuotaSpec::name))
        .forEach(child -> walk(child, depth + 1, specs, quotas, out));
  }

  private static List<ResourceFigures> figures(QuotaSpec spec, ElasticQuota quota) {
    ResourceVector used = quota.getStatus() == null
        ? ResourceVector.EMPTY : ResourceQuantities.toVector(quota.getStatus().getUsed());
    ResourceVector runtime = ElasticQuotaSpecs.lenientResourceList(quota, WellKnown.QUOTA_RUNTIME);
    Set<String> resources = new TreeSet<>(spec.max().resourceNames());
    resources.addAll(spec.min().resourceNames());
    resources.addAll(used.resourceNames());
    return resources.stream().map(resource -> {
      long min = spec.min().get(resource);
      long max = spec.max().get(resource);
      long usedAmount = used.get(resource);
      String runtimeText = runtime == null ? "?" : format(resource, runtime.get(resource));
      long lent = runtime == null ? 0 : Math.max(0, min - runtime.get(resource));
      int percent = max <= 0 ? 0 : (int) Math.round(100.0 * usedAmount / max);
      return new ResourceFigures(resource, format(resource, min),
          spec.max().has(resource) ? format(resource, max) : "-", runtimeText, format(resource, usedAmount),
          format(resource, Math.max(0, usedAmount - min)), format(resource, lent), percent);
    }).toList();
  }

  private static String format(String resource, long amount) {
    return ResourceQuantities.format(resource, amount);
  }
}
