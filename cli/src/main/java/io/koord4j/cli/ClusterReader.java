package io.koord4j.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.koord4j.api.ClientConfig;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The plugin's only access to the cluster: reads, with failures turned into {@link CliFailure}s. */
final class ClusterReader implements AutoCloseable {
  private final KubernetesClient client;

  ClusterReader() {
    this(ClientConfig.client());
  }

  ClusterReader(KubernetesClient client) {
    this.client = client;
  }

  List<Queue> queues() {
    return koord4j(Queue.class, () -> client.resources(Queue.class).inAnyNamespace().list().getItems());
  }

  /** QueueUnits of one namespace, or of all when {@code namespace} is null. */
  List<QueueUnit> units(String namespace) {
    return koord4j(QueueUnit.class, () -> namespace == null
        ? client.resources(QueueUnit.class).inAnyNamespace().list().getItems()
        : client.resources(QueueUnit.class).inNamespace(namespace).list().getItems());
  }

  List<ElasticQuota> quotas() {
    return koord4j(ElasticQuota.class,
        () -> client.resources(ElasticQuota.class).inAnyNamespace().list().getItems());
  }

  List<Node> nodes() {
    return read(() -> client.nodes().list().getItems());
  }

  /** Pods bound to a node and not finished: the ones holding devices. */
  List<Pod> boundPods() {
    return read(() -> client.pods().inAnyNamespace()
        .withoutField("spec.nodeName", "")
        .withoutField("status.phase", "Succeeded")
        .withoutField("status.phase", "Failed")
        .list().getItems());
  }

  /** Device objects; none when their kind is not installed (no koordlet). */
  List<Device> devices() {
    try {
      return read(() -> client.resources(Device.class).list().getItems());
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return List.of();
      }
      throw e;
    }
  }

  Namespace namespace(String name) {
    return read(() -> client.namespaces().withName(name).get());
  }

  List<MutatingWebhookConfiguration> webhookConfigurations() {
    return read(() -> client.admissionRegistration().v1().mutatingWebhookConfigurations().list().getItems());
  }

  /** A job of any kind, found by its plural, singular or kind name among the served resources. */
  GenericKubernetesResource job(String kindOrResource, String namespace, String name) {
    ResourceDefinitionContext type = read(() -> JobKinds.find(client, kindOrResource));
    GenericKubernetesResource job =
        read(() -> client.genericKubernetesResources(type).inNamespace(namespace).withName(name).get());
    if (job == null) {
      throw new CliFailure(CliFailure.NOT_FOUND,
          type.getKind() + " " + namespace + "/" + name + " not found");
    }
    return job;
  }

  /**
   * Kueue's queueing objects, read as {@code kueue.x-k8s.io/v1beta2}: ClusterQueues, LocalQueues,
   * ResourceFlavors, WorkloadPriorityClasses and, where served, Cohorts.
   */
  List<GenericKubernetesResource> kueueObjects() {
    List<GenericKubernetesResource> objects = new java.util.ArrayList<>();
    Map<String, String> plurals = Map.of("ClusterQueue", "clusterqueues", "Cohort", "cohorts", "LocalQueue", "localqueues",
        "ResourceFlavor", "resourceflavors", "WorkloadPriorityClass", "workloadpriorityclasses");
    for (String kind : List.of("ClusterQueue", "Cohort", "LocalQueue", "ResourceFlavor", "WorkloadPriorityClass")) {
      ResourceDefinitionContext type = new ResourceDefinitionContext.Builder().withGroup("kueue.x-k8s.io")
          .withVersion("v1beta2").withKind(kind).withPlural(plurals.get(kind))
          .withNamespaced(kind.equals("LocalQueue")).build();
      try {
        objects.addAll(read(() -> type.isNamespaceScoped()
            ? client.genericKubernetesResources(type).inAnyNamespace().list().getItems()
            : client.genericKubernetesResources(type).list().getItems()));
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
          throw e;
        }
        if (!kind.equals("Cohort")) {
          throw new CliFailure(CliFailure.NO_CRDS, "the cluster does not serve " + type.getPlural()
              + ".kueue.x-k8s.io/v1beta2: Kueue 0.15 or later is not installed; give its objects with -f instead");
        }
      }
    }
    return objects;
  }

  String defaultNamespace() {
    String namespace = client.getNamespace();
    return namespace == null ? "default" : namespace;
  }

  @Override
  public void close() {
    client.close();
  }

  private <T extends HasMetadata> List<T> koord4j(Class<T> type, Supplier<List<T>> list) {
    try {
      return read(list);
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        throw new CliFailure(CliFailure.NO_CRDS, "the cluster does not serve "
            + HasMetadata.getFullResourceName(type) + ": install koord4j's CRDs (helm install koord4j helm/koord4j)");
      }
      throw e;
    }
  }

  private <T> T read(Supplier<T> call) {
    try {
      return call.get();
    } catch (KubernetesClientException e) {
      if (isUnreachable(e)) {
        throw new CliFailure(CliFailure.NO_CLUSTER, "cannot reach the Kubernetes API server at "
            + client.getMasterUrl() + " (" + rootMessage(e) + "); check KUBECONFIG and the current context");
      }
      throw e;
    }
  }

  private static boolean isUnreachable(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
