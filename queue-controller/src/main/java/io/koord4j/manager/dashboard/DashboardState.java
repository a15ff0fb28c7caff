package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.admission.UnitSpecs;
import io.koord4j.visibility.GpuMap;
import io.koord4j.visibility.GpuNodes;
import io.koord4j.visibility.JobRows;
import io.koord4j.visibility.QueueSummaries;
import io.koord4j.visibility.QuotaTreeView;
import io.koord4j.visibility.UnitPhases;
import io.koord4j.visibility.Why;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the dashboard shows, built by the same views as {@code kubectl koord4j}: the quota tree,
 * each queue with its waiting jobs in queue order and why each waits, the GPU map, and the latest
 * admissions and preemptions. Names, figures and reasons only: no pod specs, no Secrets.
 *
 * @param readAt when the cluster was read
 * @param recent the latest admissions and preemptions, newest first, as the units' conditions
 *     record them
 */
public record DashboardState(
    String readAt,
    List<QuotaTreeView.QuotaNode> quotas,
    List<QueueView> queues,
    List<GpuMap.NodeGpus> gpus,
    List<Change> recent) {

  /** How many admissions and preemptions {@link #recent} lists. */
  static final int RECENT = 20;

  /** A queue's figures and the first of its waiting jobs; {@code pendingTotal} counts them all. */
  public record QueueView(QueueSummaries.QueueSummary summary, long pendingTotal, List<WaitingJob> waiting) {}

  /** A job that waits: its place (Enqueued only), phase, age and the plugin's {@code why} lines. */
  public record WaitingJob(
      String namespace, String name, String kind, Integer position, String phase, String age,
      List<String> reasons) {}

  /** A unit admitted or preempted at {@code at}, with the condition's message. */
  public record Change(String at, String what, String namespace, String name, String queue, String message) {}

  /** The objects the dashboard reads; {@code boundPods} are the pods on nodes, not finished. */
  public record Inputs(
      List<Queue> queues, List<QueueUnit> units, List<ElasticQuota> quotas, List<Node> nodes,
      List<Device> devices, List<Pod> boundPods) {}

  /** @param shownPerQueue how many waiting jobs of each queue are listed, from the head */
  public static DashboardState of(Inputs in, Instant now, int shownPerQueue) {
    List<GpuNodes.GpuNode> gpuNodes = GpuNodes.of(in.nodes(), in.devices(), in.boundPods());
    Map<String, QueueUnit> unitById = in.units().stream()
        .collect(Collectors.toMap(UnitSpecs::id, Function.identity(), (a, b) -> a));
    List<QueueView> queues = QueueSummaries.of(in.queues(), in.units(), now).stream()
        .map(summary -> {
          List<JobRows.JobRow> waiting = JobRows.of(in.units(), summary.name(), now).stream()
              .filter(row -> UnitPhases.isPending(unitById.get(row.namespace() + "/" + row.name())))
              .sorted(Comparator.comparing(JobRows.JobRow::position, Comparator.nullsLast(Comparator.naturalOrder())))
              .toList();
          List<WaitingJob> shown = waiting.stream().limit(shownPerQueue)
              .map(row -> waitingJob(row, unitById.get(row.namespace() + "/" + row.name()), in, gpuNodes))
              .toList();
          return new QueueView(summary, waiting.size(), shown);
        })
        .toList();
    return new DashboardState(now.toString(), QuotaTreeView.of(in.quotas()), queues,
        GpuMap.of(gpuNodes), recent(in.units()));
  }

  /** Units whose Admitted condition is True, or whose Evicted one is True for a preemption. */
  static List<Change> recent(List<QueueUnit> units) {
    List<Change> changes = new ArrayList<>();
    for (QueueUnit unit : units) {
      condition(unit, QueueUnitConditions.ADMITTED)
          .filter(c -> "True".equals(c.getStatus()))
          .ifPresent(c -> changes.add(change(unit, "admitted", c)));
      condition(unit, QueueUnitConditions.EVICTED)
          .filter(c -> "True".equals(c.getStatus()) && QueueUnitConditions.REASON_PREEMPTED.equals(c.getReason()))
          .ifPresent(c -> changes.add(change(unit, "preempted", c)));
    }
    return changes.stream()
        .filter(change -> change.at() != null)
        .sorted(Comparator.comparing(Change::at).reversed())
        .limit(RECENT)
        .toList();
  }

  private static Change change(QueueUnit unit, String what, Condition condition) {
    return new Change(condition.getLastTransitionTime(), what, unit.getMetadata().getNamespace(),
        unit.getMetadata().getName(), unit.getSpec().getQueue(), condition.getMessage());
  }

  private static Optional<Condition> condition(QueueUnit unit, String type) {
    return unit.getStatus() == null || unit.getStatus().getConditions() == null
        ? Optional.empty()
        : unit.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  private static WaitingJob waitingJob(
      JobRows.JobRow row, QueueUnit unit, Inputs in, List<GpuNodes.GpuNode> gpuNodes) {
    Why.Answer answer = Why.explain(unit, in.units(), in.quotas(), gpuNodes);
    return new WaitingJob(row.namespace(), row.name(), row.kind(), row.position(), row.phase(), row.age(),
        answer.reasons());
  }
}
