package io.koord4j.visibility;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.device.kube.PodGpus;
import io.koord4j.jobs.QueueMembership;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.quota.kube.QuotaResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code why <kind>/<name>}: what holds a job back. The wait itself is the admission core's own
 * verdict, which the manager writes to the job's QueueUnit; this adds the figures behind it: the
 * quota chain, the unit's place in its queue, its admission checks, and whether the GPU shape of
 * its gang fits the nodes as they are. A job without a QueueUnit is told why it is not queued.
 */
public final class Why {
  public static final String MANAGED_NAMESPACES_WEBHOOK = "managed-namespaces.jobs.koord4j.io";

  private Why() {}

  /** What the answer is built from; {@code unit} is null when the job has no QueueUnit. */
  public record Facts(
      GenericKubernetesResource job,
      QueueUnit unit,
      List<QueueUnit> queueUnits,
      List<ElasticQuota> quotas,
      List<GpuNodes.GpuNode> gpuNodes,
      Namespace namespace,
      List<MutatingWebhookConfiguration> webhooks) {}

  public record Answer(String job, String queue, String phase, Integer position, Integer pending, boolean waiting,
      List<String> reasons) {}

  public static Answer explain(Facts facts) {
    GenericKubernetesResource job = facts.job();
    String id = job.getKind() + " " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    QueueUnit unit = facts.unit();
    if (unit == null) {
      return new Answer(id, QueueMembership.queueName(job.getMetadata()).orElse(null), null, null, null, true,
          List.of(notQueued(facts)));
    }
    return explain(id, unit, facts.queueUnits(), facts.quotas(), facts.gpuNodes());
  }

  /**
   * The answer for a queued job known by its QueueUnit alone, named after the unit's consumer.
   *
   * @param queueUnits the units the queue's order is computed from; those of other queues are ignored
   */
  public static Answer explain(
      QueueUnit unit, List<QueueUnit> queueUnits, List<ElasticQuota> quotas, List<GpuNodes.GpuNode> gpuNodes) {
    String kind = unit.getSpec().getConsumerRef() == null ? "QueueUnit" : unit.getSpec().getConsumerRef().getKind();
    return explain(kind + " " + unit.getMetadata().getNamespace() + "/" + unit.getMetadata().getName(), unit,
        queueUnits, quotas, gpuNodes);
  }

  private static Answer explain(
      String id, QueueUnit unit, List<QueueUnit> queueUnits, List<ElasticQuota> quotas,
      List<GpuNodes.GpuNode> gpuNodes) {
    String phase = UnitPhases.phase(unit);
    List<String> reasons = new ArrayList<>();
    Integer position = null;
    Integer pending = null;
    boolean waiting = UnitPhases.isPending(unit);
    if (!waiting) {
      reasons.add(QueueUnitPhase.SUCCEED.equals(phase) || QueueUnitPhase.FAILED.equals(phase)
          ? "finished (" + phase + "): " + Objects.toString(unit.getStatus().getMessage(), "")
          : "not waiting: admitted (" + phase + ")");
    } else {
      String message = unit.getStatus() == null ? null : unit.getStatus().getMessage();
      reasons.add(message == null ? "enqueued; the admission loop has not decided yet (is koord4j-manager running?)" : message);
      eviction(unit).filter(eviction -> !eviction.endsWith(": " + message)).ifPresent(reasons::add);
      if (!unit.getSpec().isActive()) {
        reasons.add("inactive: it is not admitted until its spec.active is set to true again");
      } else if (QueueUnitPhase.ENQUEUED.equals(phase)) {
        List<QueueUnit> line = JobRows.line(unit, queueUnits);
        position = line.indexOf(unit) + 1;
        pending = line.size();
        reasons.add(position(unit, line, position));
      }
      checks(unit).forEach(reasons::add);
      quotaFigures(unit, quotas).forEach(reasons::add);
      gangShapes(unit, gpuNodes).forEach(reasons::add);
    }
    return new Answer(id, unit.getSpec().getQueue(), phase, position, pending, waiting, reasons);
  }

  public static String text(Answer answer) {
    StringBuilder out = new StringBuilder(answer.job());
    out.append(answer.phase() == null ? " is not queued" : answer.waiting() ? " is waiting" : " is not waiting");
    if (answer.queue() != null) {
      out.append(" (queue ").append(answer.queue());
      if (answer.phase() != null) {
        out.append(", phase ").append(answer.phase());
      }
      out.append(')');
    }
    out.append('\n');
    answer.reasons().forEach(reason -> out.append("  - ").append(reason).append('\n'));
    return out.toString();
  }

  // ---- not queued

  private static String notQueued(Facts facts) {
    GenericKubernetesResource job = facts.job();
    if (QueueMembership.optsOut(job.getMetadata())) {
      return "not queued: it is labelled " + WellKnown.SKIP_QUEUE_LABEL + "=true, so koord4j leaves it alone";
    }
    Optional<String> queue = QueueMembership.queueName(job.getMetadata());
    if (queue.isEmpty() && !namespaceManaged(facts)) {
      return "not queued: it names no queue (label " + WellKnown.KUEUE_QUEUE_NAME + " or "
          + WellKnown.QUOTA_NAME + ") and namespace " + job.getMetadata().getNamespace()
          + " is not managed (no koord4j webhook selects it)";
    }
    String asks = queue.map(q -> "it names queue " + q).orElse("its namespace is managed");
    if (facts.webhooks().stream().noneMatch(Why::isKoord4j)) {
      return "not queued: " + asks + ", but koord4j's mutating webhook is not registered, so the API"
          + " server never sent the job to it (is koord4j-manager running?)";
    }
    if (!isSuspended(job)) {
      return "not queued: " + asks + ", but it was created unsuspended and has no QueueUnit: the webhook"
          + " was not called for it (created before koord4j's webhook was registered, or the webhook was"
          + " unreachable and its failure policy let the job through)";
    }
    return "not queued yet: " + asks + " and the job is suspended, but it has no QueueUnit: the manager"
        + " has not seen it (is koord4j-manager running and leading?)";
  }

  private static boolean namespaceManaged(Facts facts) {
    Map<String, String> labels = facts.namespace() == null || facts.namespace().getMetadata().getLabels() == null
        ? Map.of() : facts.namespace().getMetadata().getLabels();
    return facts.webhooks().stream()
        .flatMap(config -> config.getWebhooks().stream())
        .filter(webhook -> MANAGED_NAMESPACES_WEBHOOK.equals(webhook.getName()))
        .map(MutatingWebhook::getNamespaceSelector)
        .anyMatch(selector -> matches(selector, labels));
  }

  /** matchLabels and the In / NotIn / Exists / DoesNotExist expressions of a label selector. */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    boolean labelsMatch = selector.getMatchLabels() == null
        || selector.getMatchLabels().entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    return labelsMatch && (selector.getMatchExpressions() == null
        || selector.getMatchExpressions().stream().allMatch(e -> switch (e.getOperator()) {
          case "In" -> e.getValues().contains(labels.get(e.getKey()));
          case "NotIn" -> !e.getValues().contains(labels.get(e.getKey()));
          case "Exists" -> labels.containsKey(e.getKey());
          case "DoesNotExist" -> !labels.containsKey(e.getKey());
          default -> false;
        }));
  }

  private static boolean isKoord4j(MutatingWebhookConfiguration config) {
    return config.getWebhooks().stream().anyMatch(webhook -> webhook.getName().endsWith(".koord4j.io"));
  }

  private static boolean isSuspended(GenericKubernetesResource job) {
    Object spec = job.getAdditionalProperties().get("spec");
    return spec instanceof Map<?, ?> fields && Boolean.TRUE.equals(fields.get("suspend"));
  }

  /** Why the unit was evicted, while its Evicted condition is True: reason and message. */
  private static Optional<String> eviction(QueueUnit unit) {
    List<Condition> conditions = unit.getStatus() == null ? null : unit.getStatus().getConditions();
    return Optional.ofNullable(conditions).stream()
        .flatMap(List::stream)
        .filter(c -> QueueUnitConditions.EVICTED.equals(c.getType()) && "True".equals(c.getStatus()))
        .map(c -> c.getReason() + ": " + c.getMessage())
        .findFirst();
  }

  // ---- position

  private static String position(QueueUnit unit, List<QueueUnit> line, int position) {
    int priority = JobRows.priority(unit);
    long higher = line.subList(0, position - 1).stream().filter(u -> JobRows.priority(u) > priority).count();
    String text = "position " + position + " of " + line.size() + " in queue " + unit.getSpec().getQueue();
    if (position == 1) {
      return text + ", at the head";
    }
    long earlier = position - 1 - higher;
    String higherText = higher + " higher-priority unit" + (higher == 1 ? "" : "s");
    String earlierText = earlier + " earlier unit" + (earlier == 1 ? "" : "s") + " of priority " + priority;
    return text + ", behind " + (earlier == 0 ? higherText : higher == 0 ? earlierText : higherText + " and " + earlierText);
  }

  // ---- admission checks

  private static List<String> checks(QueueUnit unit) {
    List<AdmissionCheckState> checks = unit.getStatus() == null || unit.getStatus().getAdmissionChecks() == null
        ? List.of() : unit.getStatus().getAdmissionChecks();
    return checks.stream()
        .filter(check -> !AdmissionCheckState.READY.equals(check.getState()))
        .map(check -> "admission check " + check.getName() + " " + check.getState()
            + (check.getMessage() == null || check.getMessage().isBlank() ? "" : ": " + check.getMessage()))
        .toList();
  }

  // ---- quota

  /** The request against each quota from the unit's leaf to the top, for the resources it asks. */
  private static List<String> quotaFigures(QueueUnit unit, List<ElasticQuota> quotas) {
    Map<String, ElasticQuota> byName = quotas.stream()
        .collect(Collectors.toMap(q -> q.getMetadata().getName(), Function.identity(), (a, b) -> a));
    ResourceVector request = ResourceQuantities.toVector(unit.getSpec().getResource());
    List<String> lines = new ArrayList<>();
    String name = QuotaResolver.resolve(unit, byName);
    while (name != null && !name.isEmpty() && byName.containsKey(name)) {
      ElasticQuota quota = byName.get(name);
      QuotaSpec spec = ElasticQuotaSpecs.from(quota);
      lines.add(quotaLine(spec, quota, request));
      name = spec.parent();
    }
    return lines;
  }

  private static String quotaLine(QuotaSpec spec, ElasticQuota quota, ResourceVector request) {
    ResourceVector runtime = ElasticQuotaSpecs.lenientResourceList(quota, WellKnown.QUOTA_RUNTIME);
    ResourceVector used = quota.getStatus() == null ? ResourceVector.EMPTY : ResourceQuantities.toVector(quota.getStatus().getUsed());
    List<String> parts = new ArrayList<>();
    for (String resource : request.resourceNames()) {
      if (!spec.max().has(resource)) {
        continue;
      }
      String needs = f(resource, request.get(resource));
      long rt = runtime == null ? -1 : runtime.get(resource);
      long min = spec.min().get(resource);
      String share = rt < 0 ? "runtime unknown" : "runtime " + f(resource, rt)
          + (rt > min ? " (min " + f(resource, min) + ", borrows " + f(resource, rt - min) + ")"
              : rt < min ? " (min " + f(resource, min) + ", lends " + f(resource, min - rt) + ")"
              : " (= min)");
      parts.add(resource + ": needs " + needs + ", " + share + ", used " + f(resource, used.get(resource))
          + ", max " + f(resource, spec.max().get(resource)));
    }
    return "quota " + spec.name() + (parts.isEmpty() ? ": governs none of the resources asked" : ": " + String.join("; ", parts));
  }

  private static String f(String resource, long amount) {
    return ResourceQuantities.format(resource, amount);
  }

  // ---- gang GPU shape

  /**
   * For each pod set asking GPUs: how many of its pods the free GPUs of the nodes its node
   * selector admits hold now, placed by the scheduler's GPU allocator.
   */
  private static List<String> gangShapes(QueueUnit unit, List<GpuNodes.GpuNode> allNodes) {
    List<String> lines = new ArrayList<>();
    for (PodSet podSet : unit.getSpec().getPodSet() == null ? List.<PodSet>of() : unit.getSpec().getPodSet()) {
      Optional<GpuRequest> gpus = gpuRequest(podSet);
      if (gpus.isEmpty()) {
        continue;
      }
      Map<String, String> selector = podSet.getTemplate().getSpec().getNodeSelector();
      List<GpuNodes.GpuNode> nodes = allNodes.stream()
          .filter(node -> selector == null || node.labels().entrySet().containsAll(selector.entrySet()))
          .toList();
      int pods = podSet.getCount() == null ? 1 : podSet.getCount();
      int count = gpus.get().count();
      int room = 0;
      int nodesWithRoom = 0;
      for (GpuNodes.GpuNode node : nodes) {
        int here = podsThatFit(node, gpus.get(), pods - room);
        room += here;
        nodesWithRoom += here > 0 ? 1 : 0;
      }
      String linked = nodes.stream().anyMatch(n -> !n.inventory().partitionTable().isEmpty())
          ? " in one NVLink partition" : "";
      lines.add("gang of " + pods + " × " + count + " GPUs (pod set " + podSet.getName() + "): "
          + (room >= pods ? "the free GPUs hold all " + pods + " pods now"
              : "only " + nodesWithRoom + " node" + (nodesWithRoom == 1 ? " has " : "s have ") + count
                  + " free GPUs" + linked + ", room for " + room + " of " + pods + " pods"));
    }
    return lines;
  }

  private static int podsThatFit(GpuNodes.GpuNode node, GpuRequest request, int wanted) {
    NodeGpuUsage usage = node.usage();
    int fit = 0;
    while (fit < wanted) {
      Optional<GpuAllocation> allocation = GpuAllocator.allocate(node.inventory(), usage, request).allocation();
      if (allocation.isEmpty()) {
        break;
      }
      usage = usage.reserve(allocation.get());
      fit++;
    }
    return fit;
  }

  private static Optional<GpuRequest> gpuRequest(PodSet podSet) {
    if (podSet.getTemplate() == null || podSet.getTemplate().getSpec() == null) {
      return Optional.empty();
    }
    Pod pod = new PodBuilder().withMetadata(podSet.getTemplate().getMetadata())
        .editOrNewMetadata().withName(podSet.getName()).endMetadata()
        .withSpec(podSet.getTemplate().getSpec()).build();
    try {
      return PodGpus.request(pod);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
