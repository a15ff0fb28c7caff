package io.koord4j.migration;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueuePolicy;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Kueue's queueing objects as ElasticQuotas and Queues with the same guarantees. A cohort becomes
 * a parent quota, a ClusterQueue a leaf under its cohort's:
 *
 * <ul>
 *   <li>min: a ClusterQueue's nominal quota; a cohort's own nominal quota plus all its members'
 *       mins (all of it is the cohort's to share);
 *   <li>max: nominal plus the borrowing limit; without a limit, what the whole cohort tree holds,
 *       as in Kueue a queue may borrow all its cohort's unused quota; never above its parent's max;
 *       a ClusterQueue in no cohort cannot borrow, so its max is its min;
 *   <li>a lending limit of zero for every resource: the quota lends nothing ({@code
 *       allow-lent-resource: "false"});
 *   <li>StrictFIFO queueing: the {@code Block} policy; BestEffortFIFO: {@code Priority};
 *   <li>a LocalQueue: a Queue of its name (jobs keep their {@code kueue.x-k8s.io/queue-name}
 *       label), and its namespace bound to its ClusterQueue's quota.
 * </ul>
 *
 * A resource offered in several flavors is summed, since quotas have no flavors. What has no
 * equivalent is listed in {@link Result#notExpressed}, never dropped in silence.
 */
public final class KueueImport {
  private static final String KUEUE_GROUP = "kueue.x-k8s.io";

  private final Map<String, Node> nodes = new TreeMap<>();
  private final List<LocalQueue> localQueues = new ArrayList<>();
  private final List<String> notExpressed = new ArrayList<>();

  /** What to apply, and what the cluster had that koord4j cannot express. */
  public record Result(List<HasMetadata> objects, List<String> notExpressed) {}

  /** A cohort or ClusterQueue: one quota of the tree. */
  private record Node(String name, String parent, boolean clusterQueue, Limits limits, String policy) {}

  private record LocalQueue(String namespace, String name, String clusterQueue) {}

  /** Per resource over all flavors: nominal, and borrowing and lending limits where every flavor sets one. */
  private record Limits(
      Map<String, BigDecimal> nominal, Map<String, BigDecimal> borrowing, Map<String, BigDecimal> lending) {}

  private KueueImport() {}

  /**
   * @param kueueObjects ClusterQueues, Cohorts, LocalQueues, ResourceFlavors and
   *     WorkloadPriorityClasses, of {@code kueue.x-k8s.io/v1beta1} or {@code v1beta2}; others are ignored
   * @param quotaNamespace where the ElasticQuotas go
   * @throws IllegalArgumentException naming the object and field when the input is malformed
   */
  public static Result translate(List<GenericKubernetesResource> kueueObjects, String quotaNamespace) {
    KueueImport run = new KueueImport();
    kueueObjects.stream()
        .filter(object -> object.getApiVersion() != null && object.getApiVersion().startsWith(KUEUE_GROUP + "/"))
        .forEach(run::read);
    return run.result(quotaNamespace);
  }

  /** The objects of a YAML or JSON text of one or more documents. */
  public static List<GenericKubernetesResource> parse(String text) {
    Object parsed = new KubernetesSerialization().unmarshal(text);
    List<?> documents = parsed instanceof List<?> list ? list : List.of(parsed);
    return documents.stream().filter(Objects::nonNull)
        .map(document -> document instanceof GenericKubernetesResource generic ? generic
            : Serialization.unmarshal(Serialization.asJson(document), GenericKubernetesResource.class))
        .toList();
  }

  private void read(GenericKubernetesResource object) {
    String name = object.getMetadata().getName();
    switch (object.getKind()) {
      case "ClusterQueue" -> readClusterQueue(object, name);
      case "Cohort" -> {
        nodes.put(name, new Node(name, object.get("spec", "parentName"), false, limits(object), null));
        reportIfSet(object, "Cohort " + name, "fairSharing", "fair-sharing weights are not translated");
      }
      case "LocalQueue" -> {
        localQueues.add(new LocalQueue(object.getMetadata().getNamespace(), name, required(object, "clusterQueue")));
        reportIfSet(object, "LocalQueue " + name, "stopPolicy", "koord4j's Queues cannot be stopped");
      }
      case "ResourceFlavor" -> {
        for (String field : List.of("nodeLabels", "nodeTaints", "tolerations", "topologyName")) {
          reportIfSet(object, "ResourceFlavor " + name, field,
              "quotas have no flavors; jobs that need these nodes must say so in their own pod templates");
        }
      }
      case "WorkloadPriorityClass" -> notExpressed.add("WorkloadPriorityClass " + name + " (value " + object.get("value")
          + "): jobs labelled kueue.x-k8s.io/priority-class=" + name
          + " get no priority from it; give their pods a PriorityClass instead");
      default -> notExpressed.add(object.getKind() + " " + name + ": not a queueing object koord4j translates");
    }
  }

  private void readClusterQueue(GenericKubernetesResource queue, String name) {
    String where = "ClusterQueue " + name;
    // v1beta2 calls the field cohortName, v1beta1 cohort.
    String cohort = queue.get("spec", "cohortName") != null ? queue.get("spec", "cohortName") : queue.get("spec", "cohort");
    String strategy = Objects.requireNonNullElse(queue.get("spec", "queueingStrategy"), "BestEffortFIFO");
    String policy = switch (strategy) {
      case "StrictFIFO" -> QueuePolicy.BLOCK;
      case "BestEffortFIFO" -> QueuePolicy.PRIORITY;
      default -> throw new IllegalArgumentException(where + ": spec.queueingStrategy \"" + strategy
          + "\" must be StrictFIFO or BestEffortFIFO");
    };
    nodes.put(name, new Node(name, cohort, true, limits(queue), policy));
    Map<String, Object> selector = queue.get("spec", "namespaceSelector");
    if (selector == null) {
      notExpressed.add(where + ": it has no namespaceSelector, so Kueue admits from no namespace;"
          + " koord4j admits from its LocalQueues' namespaces");
    } else if (!selector.isEmpty()) {
      notExpressed.add(where + ": namespaceSelector " + selector + " is not enforced;"
          + " jobs of any namespace that name one of its queues are admitted");
    }
    reportIfSet(queue, where, "preemption",
        "not translated; koord4j reclaims what a quota lent when the quota needs its min, and preempts by priority");
    reportIfSet(queue, where, "fairSharing", "fair-sharing weights are not translated");
    reportIfSet(queue, where, "admissionChecks", "Kueue's admission checks do not run on koord4j's queues");
    reportIfSet(queue, where, "admissionChecksStrategy", "Kueue's admission checks do not run on koord4j's queues");
    reportIfSet(queue, where, "stopPolicy", "koord4j's queues cannot be stopped");
  }

  /** The resource groups' quotas summed over flavors; a limit counts only where every flavor sets it. */
  private Limits limits(GenericKubernetesResource object) {
    String where = object.getKind() + " " + object.getMetadata().getName();
    List<Map<String, Object>> groups = object.get("spec", "resourceGroups");
    Map<String, BigDecimal> nominal = new TreeMap<>();
    Map<String, BigDecimal> borrowing = new TreeMap<>();
    Map<String, BigDecimal> lending = new TreeMap<>();
    Map<String, Set<String>> flavorsOf = new TreeMap<>();
    Set<String> unlimitedBorrowing = new TreeSet<>();
    Set<String> unlimitedLending = new TreeSet<>();
    for (Map<String, Object> group : groups == null ? List.<Map<String, Object>>of() : groups) {
      for (Map<String, Object> flavor : list(group.get("flavors"))) {
        for (Map<String, Object> resource : list(flavor.get("resources"))) {
          String resourceName = String.valueOf(resource.get("name"));
          String path = where + ": flavor " + flavor.get("name") + " resource " + resourceName;
          flavorsOf.computeIfAbsent(resourceName, r -> new LinkedHashSet<>()).add(String.valueOf(flavor.get("name")));
          nominal.merge(resourceName, amount(resource.get("nominalQuota"), path + " nominalQuota"), BigDecimal::add);
          addLimit(resource.get("borrowingLimit"), resourceName, path + " borrowingLimit", borrowing, unlimitedBorrowing);
          addLimit(resource.get("lendingLimit"), resourceName, path + " lendingLimit", lending, unlimitedLending);
        }
      }
    }
    flavorsOf.forEach((resource, flavors) -> {
      if (flavors.size() > 1) {
        notExpressed.add(where + ": " + resource + " is offered in flavors " + flavors
            + "; quotas have no flavors, so its quota is their sum");
      }
    });
    unlimitedBorrowing.forEach(borrowing::remove);
    unlimitedLending.forEach(lending::remove);
    return new Limits(nominal, borrowing, lending);
  }

  private static void addLimit(
      Object limit, String resource, String path, Map<String, BigDecimal> limits, Set<String> unlimited) {
    if (limit == null) {
      unlimited.add(resource);
    } else {
      limits.merge(resource, amount(limit, path), BigDecimal::add);
    }
  }

  private Result result(String quotaNamespace) {
    nodes.values().forEach(node -> parentOf(node, new LinkedHashSet<>()));
    addImplicitCohorts();
    List<HasMetadata> objects = new ArrayList<>();
    objects.add(namespace(quotaNamespace));
    objects.add(namespace(Queue.DEFAULT_NAMESPACE));
    Map<String, Set<String>> namespacesOf = boundNamespaces();
    for (Node node : nodes.values()) {
      objects.add(quota(node, quotaNamespace, namespacesOf.getOrDefault(node.name(), Set.of())));
    }
    objects.addAll(queues());
    return new Result(objects, List.copyOf(notExpressed));
  }

  /**
   * One Queue per LocalQueue name (Queues live in one namespace), with its ClusterQueue's policy;
   * a LocalQueue named like its ClusterQueue uses the Queue koord4j keeps for the quota.
   */
  private List<Queue> queues() {
    Map<String, Set<String>> policiesOf = new TreeMap<>();
    localQueues.stream()
        .filter(local -> !local.name().equals(local.clusterQueue()) && nodes.containsKey(local.clusterQueue()))
        .forEach(local -> policiesOf.computeIfAbsent(local.name(), n -> new TreeSet<>())
            .add(nodes.get(local.clusterQueue()).policy()));
    List<Queue> queues = new ArrayList<>();
    policiesOf.forEach((name, policies) -> {
      if (policies.size() > 1) {
        notExpressed.add("LocalQueues named " + name + " go to ClusterQueues of different queueing strategies;"
            + " their Queue gets " + QueuePolicy.PRIORITY + " and each quota keeps its own policy");
      }
      queues.add(queue(name, policies.size() == 1 ? policies.iterator().next() : QueuePolicy.PRIORITY));
    });
    return queues;
  }

  /** Walks up from a node, refusing a cohort that is its own ancestor. */
  private void parentOf(Node node, Set<String> seen) {
    if (!seen.add(node.name())) {
      throw new IllegalArgumentException("Cohort " + node.name() + ": spec.parentName forms a cycle through " + seen);
    }
    Node parent = node.parent() == null ? null : nodes.get(node.parent());
    if (parent != null) {
      parentOf(parent, seen);
    }
  }

  /** A cohort named by ClusterQueues or cohorts without a Cohort object of its own holds no quota itself. */
  private void addImplicitCohorts() {
    Set<String> named = nodes.values().stream().map(Node::parent).filter(Objects::nonNull)
        .filter(parent -> !nodes.containsKey(parent)).collect(Collectors.toCollection(TreeSet::new));
    Limits none = new Limits(Map.of(), Map.of(), Map.of());
    named.forEach(cohort -> nodes.put(cohort, new Node(cohort, null, false, none, null)));
  }

  /** Per ClusterQueue, the namespaces of its LocalQueues; a namespace whose LocalQueues go to several is reported. */
  private Map<String, Set<String>> boundNamespaces() {
    Map<String, Set<String>> queuesOfNamespace = new TreeMap<>();
    Map<String, Set<String>> namespacesOf = new TreeMap<>();
    for (LocalQueue local : localQueues) {
      if (!nodes.containsKey(local.clusterQueue())) {
        notExpressed.add("LocalQueue " + local.namespace() + "/" + local.name() + ": ClusterQueue "
            + local.clusterQueue() + " is not among the objects imported; its jobs go to the default quota");
        continue;
      }
      if (nodes.containsKey(local.name()) && !local.name().equals(local.clusterQueue())) {
        notExpressed.add("LocalQueue " + local.namespace() + "/" + local.name() + " is named like " + kind(nodes.get(local.name()))
            + " " + local.name() + ", whose quota its jobs would be charged to; rename it or label its jobs "
            + WellKnown.QUOTA_NAME + "=" + local.clusterQueue());
      }
      queuesOfNamespace.computeIfAbsent(local.namespace(), n -> new TreeSet<>()).add(local.clusterQueue());
      namespacesOf.computeIfAbsent(local.clusterQueue(), q -> new TreeSet<>()).add(local.namespace());
    }
    queuesOfNamespace.forEach((namespace, clusterQueues) -> {
      if (clusterQueues.size() > 1) {
        notExpressed.add("namespace " + namespace + " has LocalQueues of ClusterQueues " + clusterQueues
            + "; a job there is charged to the quota its queue is named after, else to " + clusterQueues.iterator().next()
            + ", unless it carries the label " + WellKnown.QUOTA_NAME);
      }
    });
    return namespacesOf;
  }

  private ElasticQuota quota(Node node, String namespace, Set<String> boundNamespaces) {
    ElasticQuota quota = new ElasticQuota();
    ObjectMetaBuilder metadata = new ObjectMetaBuilder().withName(node.name()).withNamespace(namespace)
        .addToLabels(WellKnown.QUOTA_IS_PARENT, String.valueOf(!node.clusterQueue()));
    if (node.parent() != null) {
      metadata.addToLabels(WellKnown.QUOTA_PARENT, node.parent());
    }
    if (node.policy() != null) {
      metadata.addToLabels(WellKnown.QUEUE_POLICY_LABEL, node.policy());
    }
    if (lendsNothing(node.limits())) {
      metadata.addToLabels(WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false");
    } else if (!node.limits().lending().isEmpty()) {
      notExpressed.add(kind(node) + " " + node.name() + ": lendingLimit " + node.limits().lending()
          + " is not translated; koord4j lends all of a quota's unused min, or none of it");
    }
    if (!boundNamespaces.isEmpty()) {
      metadata.addToAnnotations(WellKnown.QUOTA_NAMESPACES,
          boundNamespaces.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(",", "[", "]")));
    }
    quota.setMetadata(metadata.build());
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(quantities(capacity(node)));
    spec.setMax(quantities(max(node)));
    quota.setSpec(spec);
    return quota;
  }

  private static boolean lendsNothing(Limits limits) {
    return !limits.nominal().isEmpty() && limits.lending().keySet().equals(limits.nominal().keySet())
        && limits.lending().values().stream().allMatch(amount -> amount.signum() == 0);
  }

  /** A node's own nominal quota and all its descendants'. */
  private Map<String, BigDecimal> capacity(Node node) {
    Map<String, BigDecimal> total = node.limits().nominal();
    for (Node child : nodes.values()) {
      if (node.name().equals(child.parent())) {
        total = ResourceQuantities.sum(total, capacity(child));
      }
    }
    return total;
  }

  /** What a node may use: its capacity plus its borrowing limit, else its tree's, and at most its parent's max. */
  private Map<String, BigDecimal> max(Node node) {
    if (node.clusterQueue() && node.parent() == null) {
      return node.limits().nominal();
    }
    Node parent = node.parent() == null ? null : nodes.get(node.parent());
    Map<String, BigDecimal> bound = parent == null ? capacity(node) : max(parent);
    Map<String, BigDecimal> own = capacity(node);
    Map<String, BigDecimal> max = new TreeMap<>();
    for (String resource : node.clusterQueue() ? own.keySet() : bound.keySet()) {
      BigDecimal limit = node.limits().borrowing().get(resource);
      BigDecimal treeBound = bound.getOrDefault(resource, own.getOrDefault(resource, BigDecimal.ZERO));
      BigDecimal wanted = limit == null ? treeBound : own.getOrDefault(resource, BigDecimal.ZERO).add(limit);
      max.put(resource, wanted.min(treeBound).max(own.getOrDefault(resource, BigDecimal.ZERO)));
    }
    return max;
  }

  private static Queue queue(String name, String policy) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(Queue.DEFAULT_NAMESPACE).build());
    QueueSpec spec = new QueueSpec();
    spec.setQueuePolicy(policy);
    queue.setSpec(spec);
    return queue;
  }

  private static Namespace namespace(String name) {
    return new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  private static String kind(Node node) {
    return node.clusterQueue() ? "ClusterQueue" : "Cohort";
  }

  private void reportIfSet(GenericKubernetesResource object, String where, String field, String why) {
    Object value = object.get("spec", field);
    if (value != null && !(value instanceof Map<?, ?> map && map.isEmpty()) && !"None".equals(value)) {
      notExpressed.add(where + ": spec." + field + " " + value + ": " + why);
    }
  }

  private static String required(GenericKubernetesResource object, String field) {
    String value = object.get("spec", field);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(object.getKind() + " " + object.getMetadata().getName()
          + ": spec." + field + " is required");
    }
    return value;
  }

  private static BigDecimal amount(Object value, String path) {
    if (value == null) {
      throw new IllegalArgumentException(path + " is required");
    }
    return ResourceQuantities.parse(new Quantity(String.valueOf(value)), path);
  }

  private static Map<String, Quantity> quantities(Map<String, BigDecimal> amounts) {
    return new TreeMap<>(ResourceQuantities.toQuantities(amounts));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }
}
