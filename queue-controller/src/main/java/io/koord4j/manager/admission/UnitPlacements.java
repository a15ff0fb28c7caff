package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.kueue.EmptyNodesFit;
import io.koord4j.queue.core.PlacementCheck;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admission loop's {@link PlacementCheck}: whether a unit's gang could ever be placed on the
 * nodes the informers show, judged by {@link EmptyNodesFit} with the scheduler's filters. A
 * verdict is kept until the unit's spec or what of the nodes decides fit changes, so that a pass
 * does not place every waiting gang again for a node's heartbeat.
 */
public final class UnitPlacements implements PlacementCheck {
  /** What of a node decides whether a pod fits it when it is empty. */
  private record FitFacts(
      Map<String, String> labels,
      List<Taint> taints,
      Boolean unschedulable,
      Map<String, Quantity> allocatable,
      boolean ready) {

    static FitFacts of(Node node) {
      NodeSpec spec = node.getSpec();
      NodeStatus status = node.getStatus();
      return new FitFacts(
          node.getMetadata().getLabels(),
          spec == null ? null : spec.getTaints(),
          spec == null ? null : spec.getUnschedulable(),
          status == null ? null : status.getAllocatable(),
          status != null && status.getConditions() != null && status.getConditions().stream()
              .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    }
  }

  private record Verdict(String specVersion, Optional<String> misfit) {}

  private final Map<String, QueueUnit> units;
  private final Map<String, Node> nodes = new HashMap<>();
  private final Map<String, FitFacts> facts = new HashMap<>();
  private final Map<String, Device> devices = new HashMap<>();
  private final Map<String, Verdict> verdicts = new HashMap<>();
  /** Null after the nodes changed, until the next question. */
  private EmptyNodesFit fit;

  /** @param units the loop's units by id, read when asked */
  public UnitPlacements(Map<String, QueueUnit> units) {
    this.units = units;
  }

  public void node(Node node) {
    String name = node.getMetadata().getName();
    nodes.put(name, node);
    if (!FitFacts.of(node).equals(facts.put(name, FitFacts.of(node)))) {
      nodesChanged();
    }
  }

  public void nodeGone(Node node) {
    nodes.remove(node.getMetadata().getName());
    facts.remove(node.getMetadata().getName());
    nodesChanged();
  }

  public void device(Device device) {
    devices.put(device.getMetadata().getName(), device);
    nodesChanged();
  }

  public void deviceGone(Device device) {
    devices.remove(device.getMetadata().getName());
    nodesChanged();
  }

  public void unitGone(String id) {
    verdicts.remove(id);
  }

  /** Not judged while no node accepts pods: see {@link EmptyNodesFit#hasNodes}. */
  @Override
  public Optional<String> neverFits(String unitId) {
    QueueUnit unit = units.get(unitId);
    if (unit == null) {
      return Optional.empty();
    }
    if (fit == null) {
      fit = EmptyNodesFit.of(List.copyOf(nodes.values()), Map.copyOf(devices));
    }
    if (!fit.hasNodes()) {
      return Optional.empty();
    }
    String version = specVersion(unit);
    Verdict verdict = verdicts.get(unitId);
    if (verdict == null || !verdict.specVersion().equals(version)) {
      verdict = new Verdict(version, fit.neverFits(UnitAdmissionChecks.podSetsOf(unit)));
      verdicts.put(unitId, verdict);
    }
    return verdict.misfit();
  }

  private void nodesChanged() {
    fit = null;
    verdicts.clear();
  }

  /** The generation moves with the spec only; without one (never on a real API server), every version. */
  private static String specVersion(QueueUnit unit) {
    Long generation = unit.getMetadata().getGeneration();
    return generation == null ? "version " + unit.getMetadata().getResourceVersion() : "generation " + generation;
  }
}
