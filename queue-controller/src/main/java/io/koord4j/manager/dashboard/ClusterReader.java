package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.support.SharedInformers;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the dashboard shows, read from the leader's informer caches when this replica leads and
 * they are filled, which costs the API server nothing; otherwise (a standby replica, Kueue mode)
 * listed from the API server in pages of {@link SharedInformers#LIST_PAGE}.
 */
final class ClusterReader implements Supplier<DashboardState.Inputs> {
  private final KubernetesClient client;
  private final Optional<SharedInformers> informers;

  ClusterReader(KubernetesClient client, Optional<SharedInformers> informers) {
    this.client = client;
    this.informers = informers;
  }

  @Override
  public DashboardState.Inputs get() {
    return informers.flatMap(ClusterReader::cached).orElseGet(this::listed);
  }

  /** The inputs from the informers, once those of every kind the page needs have listed. */
  static Optional<DashboardState.Inputs> cached(SharedInformers informers) {
    if (!informers.haveListed(Queue.class, QueueUnit.class, ElasticQuota.class, Node.class, Pod.class)) {
      return Optional.empty();
    }
    // The leader watches Devices only where the cluster serves them.
    List<Device> devices = informers.haveListed(Device.class) ? cache(informers, Device.class) : List.of();
    return Optional.of(new DashboardState.Inputs(
        cache(informers, Queue.class),
        cache(informers, QueueUnit.class),
        cache(informers, ElasticQuota.class),
        cache(informers, Node.class),
        devices,
        cache(informers, Pod.class).stream().filter(ClusterReader::boundAndUnfinished).toList()));
  }

  private DashboardState.Inputs listed() {
    return new DashboardState.Inputs(
        all(client.resources(Queue.class).inAnyNamespace()),
        all(client.resources(QueueUnit.class).inAnyNamespace()),
        all(client.resources(ElasticQuota.class).inAnyNamespace()),
        all(client.nodes()),
        devices(),
        all(client.pods().inAnyNamespace()
            .withoutField("spec.nodeName", "")
            .withoutField("status.phase", "Succeeded")
            .withoutField("status.phase", "Failed")));
  }

  /** Device objects; none when their kind is not installed (no koordlet). */
  private List<Device> devices() {
    try {
      return all(client.resources(Device.class));
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return List.of();
      }
      throw e;
    }
  }

  private static <T extends HasMetadata> List<T> cache(SharedInformers informers, Class<T> type) {
    return informers.of(type).getStore().list();
  }

  /** What the listed pods' field selectors keep: pods on a node, neither succeeded nor failed. */
  static boolean boundAndUnfinished(Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return node != null && !node.isEmpty() && !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  /** Every object of a list, read page by page. */
  private static <T extends HasMetadata, L extends KubernetesResourceList<T>> List<T> all(Listable<L> source) {
    List<T> items = new ArrayList<>();
    String next = null;
    do {
      L page = source.list(new ListOptionsBuilder().withLimit(SharedInformers.LIST_PAGE).withContinue(next).build());
      items.addAll(page.getItems());
      next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
    } while (next != null && !next.isEmpty());
    return items;
  }
}
