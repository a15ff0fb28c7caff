package io.koord4j.manager.metrics;

import io.koord4j.manager.admission.AdmissionObserver;
import io.koord4j.manager.admission.AdmissionSnapshot;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.QueueKeys;
import io.koord4j.quota.ResourceVector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The manager's Prometheus metrics: units pending and admitted per queue (labels {@code
 * namespace} and {@code queue}), how long units wait
 * from enqueue to admission, preemption victims given up on, and quota used and runtime per
 * quota and resource, how long each admission pass takes and how many statuses it writes, and
 * the status writer's backlog, writes, events, coalesced and dropped statuses. CPU is in cores.
 */
public final class ManagerMetrics implements AdmissionObserver {
  private final MeterRegistry registry;
  private final MultiGauge units;
  private final MultiGauge quotaUsed;
  private final MultiGauge quotaRuntime;
  private final AtomicInteger statusBacklog = new AtomicInteger();

  public ManagerMetrics(MeterRegistry registry, AdmissionSnapshots snapshots) {
    this.registry = registry;
    this.units =
        MultiGauge.builder("koord4j.queue.units")
            .description("queue units per queue and state (pending or admitted)")
            .register(registry);
    this.quotaUsed =
        MultiGauge.builder("koord4j.quota.used")
            .description("resources held by admitted units of a quota and its descendants")
            .register(registry);
    this.quotaRuntime =
        MultiGauge.builder("koord4j.quota.runtime")
            .description("resources a quota may use now, after borrowing and lending")
            .register(registry);
    Gauge.builder("koord4j.status.writer.queued", statusBacklog, AtomicInteger::get)
        .description("units whose status or events wait in the status writer")
        .register(registry);
    snapshots.subscribe(this::update);
  }

  @Override
  public void admitted(String queue, Duration waited) {
    Timer.builder("koord4j.admission.latency")
        .description("time from a unit's enqueue to its admission")
        .tags(queueTags(queue))
        .publishPercentileHistogram()
        .register(registry)
        .record(waited);
  }

  @Override
  public void victimTimedOut(String queue) {
    Counter.builder("koord4j.preemption.victim.timeouts")
        .description("preemption victims that did not stop in time and were given up on")
        .tags(queueTags(queue))
        .register(registry)
        .increment();
  }

  @Override
  public void passed(Duration took, int writes) {
    Timer.builder("koord4j.admission.pass")
        .description("one admission pass: the core's decisions and the writes that record them")
        .register(registry)
        .record(took);
    Counter.builder("koord4j.admission.status.writes")
        .description("QueueUnit status writes of decisions made by admission passes")
        .register(registry)
        .increment(writes);
  }

  @Override
  public void statusBacklog(int units) {
    statusBacklog.set(units);
  }

  @Override
  public void statusWritten(boolean stored) {
    Counter.builder("koord4j.status.writer.writes")
        .description("QueueUnit status writes of the status writer, stored or failed (refused)")
        .tag("result", stored ? "stored" : "failed")
        .register(registry)
        .increment();
  }

  @Override
  public void eventSent() {
    Counter.builder("koord4j.status.writer.events")
        .description("events sent by the status writer")
        .register(registry)
        .increment();
  }

  @Override
  public void statusCoalesced() {
    Counter.builder("koord4j.status.writer.coalesced")
        .description("queued statuses replaced, by a newer one of their unit or a decision, before being written")
        .register(registry)
        .increment();
  }

  @Override
  public void statusesDropped(int units) {
    Counter.builder("koord4j.status.writer.dropped")
        .description("units whose queued writes were dropped, as the replica may no longer lead")
        .register(registry)
        .increment(units);
  }

  private void update(AdmissionSnapshot snapshot) {
    List<MultiGauge.Row<?>> unitRows = new ArrayList<>();
    snapshot
        .queues()
        .forEach(
            (queue, figures) -> {
              unitRows.add(MultiGauge.Row.of(queueTags(queue).and("state", "pending"), figures.pending()));
              unitRows.add(MultiGauge.Row.of(queueTags(queue).and("state", "admitted"), figures.admitted()));
            });
    units.register(unitRows, true);
    quotaUsed.register(quotaRows(snapshot, AdmissionSnapshot.QuotaFigures::used), true);
    quotaRuntime.register(quotaRows(snapshot, AdmissionSnapshot.QuotaFigures::runtime), true);
  }

  /** Queues are namespaced: {@code default} may exist in every namespace. */
  private static Tags queueTags(String key) {
    return Tags.of("namespace", QueueKeys.namespace(key), "queue", QueueKeys.name(key));
  }

  private static List<MultiGauge.Row<?>> quotaRows(
      AdmissionSnapshot snapshot, Function<AdmissionSnapshot.QuotaFigures, ResourceVector> figure) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    snapshot
        .quotas()
        .forEach(
            (quota, figures) ->
                figure
                    .apply(figures)
                    .asMap()
                    .forEach(
                        (resource, amount) ->
                            rows.add(
                                MultiGauge.Row.of(
                                    Tags.of("quota", quota, "resource", resource),
                                    resource.equals("cpu") ? amount / 1000.0 : amount))));
    return rows;
  }
}
