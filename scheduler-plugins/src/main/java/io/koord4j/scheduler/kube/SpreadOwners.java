package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.koord4j.scheduler.plugins.podtopologyspread.OwnerSelector;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Services, ReplicationControllers, ReplicaSets and StatefulSets, watched for the selector that
 * spreads a pod without topology spread constraints of its own ({@link OwnerSelector}), as
 * kube-scheduler's system defaults do.
 */
public final class SpreadOwners implements Function<Pod, LabelSelector> {

  private volatile SharedIndexInformer<Service> services;
  private volatile SharedIndexInformer<ReplicationController> replicationControllers;
  private volatile SharedIndexInformer<ReplicaSet> replicaSets;
  private volatile SharedIndexInformer<StatefulSet> statefulSets;

  /** Starts the informers, not waiting for them: until they list, pods are not spread by default. */
  List<SharedIndexInformer<?>> watch(KubernetesClient client) {
    services = client.services().inAnyNamespace().inform();
    replicationControllers = client.replicationControllers().inAnyNamespace().inform();
    replicaSets = client.apps().replicaSets().inAnyNamespace().inform();
    statefulSets = client.apps().statefulSets().inAnyNamespace().inform();
    return List.of(services, replicationControllers, replicaSets, statefulSets);
  }

  /** The selector of the pod's services and controller; null when none selects it or before watching. */
  @Override
  public LabelSelector apply(Pod pod) {
    if (services == null) {
      return null;
    }
    String namespace = pod.getMetadata().getNamespace();
    List<Map<String, String>> serviceSelectors =
        services.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace).stream()
            .map(service -> service.getSpec().getSelector())
            .toList();
    Map<String, String> labels = pod.getMetadata().getLabels();
    return OwnerSelector.of(labels == null ? Map.of() : labels, serviceSelectors, controllerSelector(pod));
  }

  private LabelSelector controllerSelector(Pod pod) {
    OwnerReference controller =
        pod.getMetadata().getOwnerReferences().stream()
            .filter(owner -> Boolean.TRUE.equals(owner.getController()))
            .findFirst()
            .orElse(null);
    if (controller == null) {
      return null;
    }
    String key = pod.getMetadata().getNamespace() + "/" + controller.getName();
    return switch (controller.getApiVersion() + "/" + controller.getKind()) {
      case "v1/ReplicationController" -> selectorOf(replicationControllers, key,
          rc -> rc.getSpec().getSelector() == null ? null : new LabelSelector(null, rc.getSpec().getSelector()));
      case "apps/v1/ReplicaSet" -> selectorOf(replicaSets, key, rs -> rs.getSpec().getSelector());
      case "apps/v1/StatefulSet" -> selectorOf(statefulSets, key, ss -> ss.getSpec().getSelector());
      default -> null;
    };
  }

  private static <T extends HasMetadata> LabelSelector selectorOf(
      SharedIndexInformer<T> informer, String key, Function<T, LabelSelector> selector) {
    T owner = informer.getStore().getByKey(key);
    return owner == null ? null : selector.apply(owner);
  }
}
