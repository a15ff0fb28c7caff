package io.koord4j.simulator.cluster;

import io.koord4j.simulator.placement.PlacementPolicy;
import io.koord4j.simulator.placement.PlacementPolicy.Scored;
import io.koord4j.simulator.trace.TaskShape;
import java.util.Arrays;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Nodes in one state, and what a policy thought of each task shape on that state: a policy's score
 * depends on the node's state alone, so it is computed once per state and shape.
 */
public final class NodeGroup {
  private final SimCluster cluster;
  private final TreeSet<Integer> members = new TreeSet<>();
  /** By shape number ({@link SimCluster#shapeNumber}); null where not yet evaluated. */
  private Optional<Scored>[] scores = newScores(16);

  NodeGroup(SimCluster cluster) {
    this.cluster = cluster;
  }

  /** The lowest member, kept at hand: every evaluation reads it. */
  private int first = Integer.MAX_VALUE;

  void add(int index) {
    members.add(index);
    first = Math.min(first, index);
  }

  void remove(int index) {
    members.remove(index);
    if (index == first) {
      first = members.isEmpty() ? Integer.MAX_VALUE : members.first();
    }
  }

  boolean isEmpty() {
    return members.isEmpty();
  }

  public int size() {
    return members.size();
  }

  /** The lowest-numbered node of the group: where the group's placements go. */
  public int first() {
    return first;
  }

  /** The node at {@code position} in ascending order, for a random pick. */
  public int at(int position) {
    return members.stream().skip(position).findFirst().orElseThrow();
  }

  /** The policy's evaluation of the task on this group's state, computed once per shape. */
  public Optional<Scored> evaluate(PlacementPolicy policy, TaskShape task, int shapeNumber) {
    if (shapeNumber >= scores.length) {
      scores = Arrays.copyOf(scores, Math.max(shapeNumber + 1, scores.length * 2));
    }
    Optional<Scored> scored = scores[shapeNumber];
    if (scored == null) {
      scored = policy.evaluate(cluster.node(first()), task);
      scores[shapeNumber] = scored;
    }
    return scored;
  }

  void forget() {
    Arrays.fill(scores, null);
  }

  @SuppressWarnings("unchecked")
  private static Optional<Scored>[] newScores(int size) {
    return (Optional<Scored>[]) new Optional<?>[size];
  }
}
