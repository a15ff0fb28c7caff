package io.koord4j.manager.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.admission.UnitStatuses;
import io.koord4j.quantity.ResourceQuantities;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches a namespace's QueueUnits and records every moment at which the CPU of the units holding
 * quota (admitted, or evicted and not yet released) exceeds a quota's max. The check runs after
 * each watch event, on the informer's store, which then mirrors the cluster at that event's
 * resourceVersion, so no intermediate state escapes it.
 */
final class QuotaUsageWatcher implements AutoCloseable {
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
    Map<String, Long> used = new HashMap<>();
    for (QueueUnit unit : informer.getStore().list()) {
      QueueUnitStatus status = unit.getStatus();
      if (UnitStatuses.isAdmitted(status) || UnitStatuses.awaitsRelease(status)) {
        long cpu = ResourceQuantities.toVector(unit.getSpec().getResource()).get("cpu");
        for (String quota = unit.getSpec().getQueue(); quota != null; quota = parents.get(quota)) {
          used.merge(quota, cpu, Long::sum);
        }
      }
    }
    maxMilliCpu.forEach(
        (quota, max) -> {
          long use = used.getOrDefault(quota, 0L);
          if (use > max) {
            violations.add(quota + " uses " + use + "m > max " + max + "m");
          }
        });
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
