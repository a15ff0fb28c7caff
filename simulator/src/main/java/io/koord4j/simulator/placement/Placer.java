package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.NodeGroup;
import io.koord4j.simulator.cluster.SimCluster;
import io.koord4j.simulator.placement.PlacementPolicy.Scored;
import io.koord4j.simulator.trace.TaskShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Places tasks on a simulated cluster with one policy: the highest-scoring node (ties: the state
 * seen first, then the lowest-numbered node), or a uniform draw for Random-fit.
 */
public final class Placer {
  private final SimCluster cluster;
  private final PlacementPolicy policy;
  private final RandomGenerator random;
  private long policyVersion;

  public Placer(SimCluster cluster, PlacementPolicy policy, RandomGenerator random) {
    this.cluster = cluster;
    this.policy = policy;
    this.random = random;
  }

  /**
   * A new pod of the task: the policy sees it arrive; binds it and says where, or empty when no
   * node fits it.
   */
  public Optional<Placement> place(TaskShape task) {
    arrive(task);
    return placeAgain(task);
  }

  /** A new pod of the task that the policy sees arrive, though it is not placed now. */
  public void arrive(TaskShape task) {
    policy.arrived(task);
  }

  /** A pod that arrived before, tried again: as {@link #place}, without arriving again. */
  public Optional<Placement> placeAgain(TaskShape task) {
    if (policy.version() != policyVersion) {
      policyVersion = policy.version();
      cluster.forgetEvaluations();
    }
    Optional<Placement> placement = policy.drawsAtRandom() ? drawn(task) : best(task);
    placement.ifPresent(p -> cluster.bind(p.node(), task, p.gpus()));
    return placement;
  }

  private Optional<Placement> best(TaskShape task) {
    int shape = cluster.shapeNumber(task);
    NodeGroup bestGroup = null;
    Scored best = null;
    int tied = 0;
    for (NodeGroup group : cluster.groups()) {
      Optional<Scored> scored = group.evaluate(policy, task, shape);
      if (scored.isEmpty()) {
        continue;
      }
      if (best == null || scored.get().score() > best.score()) {
        best = scored.get();
        bestGroup = group;
        tied = group.size();
      } else if (scored.get().score() == best.score()) {
        tied += group.size();
      }
    }
    return bestGroup == null
        ? Optional.empty()
        : Optional.of(new Placement(bestGroup.first(), best.gpus(), tied));
  }

  /** A node drawn uniformly among those the task fits: groups weigh by their size. */
  private Optional<Placement> drawn(TaskShape task) {
    int shape = cluster.shapeNumber(task);
    List<NodeGroup> feasible = new ArrayList<>();
    List<Scored> scores = new ArrayList<>();
    int nodes = 0;
    for (NodeGroup group : cluster.groups()) {
      Optional<Scored> scored = group.evaluate(policy, task, shape);
      if (scored.isPresent()) {
        feasible.add(group);
        scores.add(scored.get());
        nodes += group.size();
      }
    }
    if (nodes == 0) {
      return Optional.empty();
    }
    int draw = random.nextInt(nodes);
    for (int i = 0; ; i++) {
      NodeGroup group = feasible.get(i);
      if (draw < group.size()) {
        return Optional.of(new Placement(group.at(draw), scores.get(i).gpus(), nodes));
      }
      draw -= group.size();
    }
  }
}
