package io.koord4j.manager.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.admission.UnitSpecs;
import io.koord4j.manager.admission.UnitStatuses;
import io.koord4j.quota.kube.PodCharges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToIntFunction;

/**
 * Watches a namespace's QueueUnits and records every moment at which the CPU of the units holding
 * quota (admitted, or evicted and not yet released) exceeds a quota's max. The check runs after
 * each watch event, on the informer's store, which then mirrors the cluster at that event's
 * resourceVersion, so no intermediate state escapes it. A unit is charged its whole request until
 * that exceeds a max; then the units' pods are listed afresh and each unit charged as the manager
 * charges it, less the share of its succeeded pods its job does not replace (the manager saw those
 * pods succeed before admitting into their share; this watch of units may see the admission first).
 */
final class QuotaUsageWatcher implements AutoCloseable {
  private final KubernetesClient client;
  private final String namespace;
  private final Map<String, String> parents;
  private final Map<String, Long> maxMilliCpu;
  private final SharedIndexInformer<QueueUnit> informer;
  private final List<String> violations = new CopyOnWriteArrayList<>();

  /**
   * @param parents each watched quota's parent, for quotas whose usage rolls up
   * @param maxMilliCpu the max of each quota to check
   */
  QuotaUsageWatcher(
      KubernetesClient client, String namespace, Map<String, String> parents,
      Map<String, Long> maxMilliCpu) {
    this.client = client;
    this.namespace = namespace;
    this.parents = parents;
    this.maxMilliCpu = maxMilliCpu;
    this.informer = client.resources(QueueUnit.class).inNamespace(namespace).inform(new Check(), 0);
  }

  List<String> violations() {
    return violations;
  }

  @Override
  public void close() {
    informer.stop();
  }

  private synchronized void check() {
    List<QueueUnit> units = informer.getStore().list();
    Map<String, Long> used = used(units, unit -> 0);
    if (exceeded(used).isEmpty()) {
      return;
    }
    Map<String, Integer> succeeded = succeededPodsByUnit();
    violations.addAll(exceeded(used(units, unit -> succeeded.getOrDefault(UnitSpecs.id(unit), 0))));
  }

  private Map<String, Long> used(List<QueueUnit> units, ToIntFunction<QueueUnit> succeededPods) {
    Map<String, Long> used = new HashMap<>();
    for (QueueUnit unit : units) {
      QueueUnitStatus status = unit.getStatus();
      if (UnitStatuses.isAdmitted(status) || UnitStatuses.awaitsRelease(status)) {
        long cpu = UnitSpecs.charged(unit, succeededPods.applyAsInt(unit)).get("cpu");
        for (String quota = unit.getSpec().getQueue(); quota != null; quota = parents.get(quota)) {
          used.merge(quota, cpu, Long::sum);
        }
      }
    }
    return used;
  }

  private List<String> exceeded(Map<String, Long> used) {
    List<String> exceeded = new ArrayList<>();
    maxMilliCpu.forEach(
        (quota, max) -> {
          long use = used.getOrDefault(quota, 0L);
          if (use > max) {
            exceeded.add(quota + " uses " + use + "m > max " + max + "m");
          }
        });
    return exceeded;
  }

  /** The namespace's succeeded pods, counted by the unit they name. */
  private Map<String, Integer> succeededPodsByUnit() {
    Map<String, Integer> succeeded = new HashMap<>();
    for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
      String unit = PodCharges.unitOf(pod);
      if (unit != null && pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase())) {
        succeeded.merge(unit, 1, Integer::sum);
      }
    }
    return succeeded;
  }

  private final class Check implements ResourceEventHandler<QueueUnit> {
    @Override
    public void onAdd(QueueUnit unit) {
      check();
    }

    @Override
    public void onUpdate(QueueUnit before, QueueUnit unit) {
      check();
    }

    @Override
    public void onDelete(QueueUnit unit, boolean finalStateUnknown) {
      check();
    }
  }
}
