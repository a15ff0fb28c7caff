package io.koord4j.scheduler.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderArgs;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderBindingArgs;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderBindingResult;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderFilterResult;
import io.koord4j.scheduler.extender.ExtenderTypes.HostPriority;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The extension points of a framework (e.g. DeviceShare and Coscheduling) offered to
 * kube-scheduler: filter and prioritize run PreFilter, Filter and Score on the nodes kube-scheduler
 * names, against koord-scheduler's cache; bind runs Reserve, Permit (a gang member waits here for
 * its gang), PreBind and Bind, so a pod's GPUs are chosen, recorded and written when it binds.
 *
 * <p>kube-scheduler's extender protocol has no Reserve verb: filter cannot hold room for the node
 * kube-scheduler will choose, so a filter for another pod may pass on room a pod being bound is
 * about to take. Bind is therefore where room is claimed: it checks the node again, assumes the
 * pod and reserves its GPUs under one lock, and refuses when the room is gone; kube-scheduler then
 * forgets the pod and tries it again.
 */
public final class Extender {

  private static final String NOT_CACHED = "is not in koord-scheduler's cache yet";

  private final Framework framework;
  private final SchedulerCache cache;
  /** Held from bind's check of the node to the end of Reserve; never while waiting at Permit. */
  private final Object claiming = new Object();

  public Extender(Framework framework, SchedulerCache cache) {
    this.framework = framework;
    this.cache = cache;
  }

  public ExtenderFilterResult filter(ExtenderArgs args) {
    CycleState state = new CycleState();
    Candidates candidates = candidates(args);
    Map<String, String> failed = new LinkedHashMap<>(candidates.unknown());
    Map<String, String> unresolvable = new LinkedHashMap<>();
    Status pre = framework.preFilter(state, args.pod());
    Map<String, Status> statuses =
        pre.isSuccess()
            ? framework.filterAll(state, args.pod(), candidates.known())
            : candidates.known().stream().collect(Collectors.toMap(NodeInfo::name, node -> pre));
    List<String> passing = new ArrayList<>();
    for (NodeInfo node : candidates.known()) {
      Status status = statuses.get(node.name());
      if (status.isSuccess()) {
        passing.add(node.name());
      } else {
        (status.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE ? unresolvable : failed)
            .put(node.name(), status.plugin() + ": " + status.message());
      }
    }
    return args.nodes() != null
        ? new ExtenderFilterResult(only(args.nodes(), Set.copyOf(passing)), null, failed, unresolvable, null)
        : new ExtenderFilterResult(null, passing, failed, unresolvable, null);
  }

  /** Scores scaled to kube-scheduler's 0..10; every node scores 0 for a pod PreFilter rejects. */
  public List<HostPriority> prioritize(ExtenderArgs args) {
    CycleState state = new CycleState();
    List<NodeInfo> nodes = candidates(args).known();
    long[] totals =
        framework.preFilter(state, args.pod()).isSuccess() && framework.maxTotalScore() > 0
            ? framework.totalScores(state, args.pod(), nodes)
            : new long[nodes.size()];
    List<HostPriority> priorities = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      long scaled =
          totals[i] == 0 ? 0 : totals[i] * ExtenderTypes.MAX_EXTENDER_PRIORITY / framework.maxTotalScore();
      priorities.add(new HostPriority(nodes.get(i).name(), scaled));
    }
    return priorities;
  }

  /**
   * Claims the node for the pod ({@link #claim}), waits at Permit, then PreBind and Bind; on
   * failure gives back what was reserved, and kube-scheduler retries the pod. Waiting at Permit
   * holds no thread: what follows runs on {@code after} once the gang is allowed or rejected.
   */
  public CompletableFuture<ExtenderBindingResult> bind(ExtenderBindingArgs args, Executor after) {
    Optional<Pod> known = cache.pod(args.podUid());
    if (known.isEmpty()) {
      return CompletableFuture.completedFuture(new ExtenderBindingResult(
          "pod " + args.podNamespace() + "/" + args.podName() + " (uid " + args.podUid()
              + ") is not in koord-scheduler's cache yet"));
    }
    Pod pod = known.get();
    String node = args.node();
    CycleState state = new CycleState();
    Status status = framework.preFilter(state, pod);
    status = status.isSuccess() ? claim(state, pod, node) : status;
    if (!status.isSuccess()) {
      return CompletableFuture.completedFuture(result(status));
    }
    return framework
        .permit(state, pod, node)
        .exceptionally(e -> Status.error("permit failed: " + e).by("Permit"))
        .thenApplyAsync(
            permit -> {
              Status bound = permit.isSuccess() ? framework.bind(state, pod, node) : permit;
              if (!bound.isSuccess()) {
                framework.unreserve(state, pod, node);
                cache.forget(args.podUid());
              }
              return result(bound);
            },
            after);
  }

  /**
   * Checks the node with the pod's filters again (the caller may name any node), assumes the pod
   * on it and reserves, as one step against other binds: two pods never both pass on the last
   * room. A pod already bound or being bound (kube-scheduler retries a bind that timed out while
   * the first still waits at Permit) is refused, so that its assumption and GPUs stay those of the
   * first bind.
   */
  private Status claim(CycleState state, Pod pod, String node) {
    String uid = pod.getMetadata().getUid();
    synchronized (claiming) {
      Optional<String> placed = cache.nodeOf(uid);
      if (placed.isPresent()) {
        return Status.unschedulable("pod is already bound or being bound to node " + placed.get())
            .by("Extender");
      }
      Status status = filter(state, pod, node);
      if (!status.isSuccess()) {
        return status;
      }
      cache.assume(pod, node);
      status = framework.reserve(state, pod, node);
      if (!status.isSuccess()) {
        cache.forget(uid);
      }
      return status;
    }
  }

  private static ExtenderBindingResult result(Status status) {
    return new ExtenderBindingResult(
        status.isSuccess() ? null : status.plugin() + ": " + status.message());
  }

  private Status filter(CycleState state, Pod pod, String node) {
    return cache
        .node(node)
        .map(info -> framework.filterAll(state, pod, List.of(info)).get(node))
        .orElseGet(() -> Status.unresolvable("node " + node + " " + NOT_CACHED).by("Extender"));
  }

  /** The named nodes the cache knows, in kube-scheduler's order, and why the others fail. */
  private record Candidates(List<NodeInfo> known, Map<String, String> unknown) {}

  private Candidates candidates(ExtenderArgs args) {
    List<String> names =
        args.nodeNames() != null
            ? args.nodeNames()
            : args.nodes() == null
                ? List.of()
                : args.nodes().getItems().stream().map(n -> n.getMetadata().getName()).toList();
    Map<String, NodeInfo> snapshot =
        cache.snapshot().stream().collect(Collectors.toMap(NodeInfo::name, Function.identity()));
    List<NodeInfo> known = new ArrayList<>();
    Map<String, String> unknown = new LinkedHashMap<>();
    for (String name : names) {
      NodeInfo node = snapshot.get(name);
      if (node != null) {
        known.add(node);
      } else {
        unknown.put(name, "node " + NOT_CACHED);
      }
    }
    return new Candidates(known, unknown);
  }

  private static NodeList only(NodeList nodes, Set<String> names) {
    List<Node> kept =
        nodes.getItems().stream().filter(n -> names.contains(n.getMetadata().getName())).toList();
    return new NodeListBuilder().withItems(kept).build();
  }
}
