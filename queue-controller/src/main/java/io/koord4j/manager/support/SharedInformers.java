package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One informer per kind, in all namespaces, shared by every part of a process that reads the kind:
 * the admission loop, the gang-feasibility check and the job reconcilers' QueueUnit events. Each
 * kind is listed and watched once, however many parts read it.
 */
public final class SharedInformers implements AutoCloseable {
  private final KubernetesClient client;
  private final Map<String, SharedIndexInformer<?>> byKind = new LinkedHashMap<>();
  private final Map<SharedIndexInformer<?>, CompletableFuture<Void>> started =
      new IdentityHashMap<>();

  public SharedInformers(KubernetesClient client) {
    this.client = client;
  }

  /** The informer of a typed kind; created on first use, started by {@link #start}. */
  @SuppressWarnings("unchecked")
  public synchronized <T extends HasMetadata> SharedIndexInformer<T> of(Class<T> type) {
    return (SharedIndexInformer<T>)
        informer(
            HasMetadata.getFullResourceName(type),
            () ->
                Namespaced.class.isAssignableFrom(type)
                    ? client.resources(type).inAnyNamespace().runnableInformer(0)
                    : client.resources(type).runnableInformer(0));
  }

  /** The informer of a kind read without a model class, such as Kueue's. */
  @SuppressWarnings("unchecked")
  public synchronized SharedIndexInformer<GenericKubernetesResource> of(
      ResourceDefinitionContext kind) {
    return (SharedIndexInformer<GenericKubernetesResource>)
        informer(
            kind.getPlural() + "." + kind.getGroup(),
            () ->
                kind.isNamespaceScoped()
                    ? client.genericKubernetesResources(kind).inAnyNamespace().runnableInformer(0)
                    : client.genericKubernetesResources(kind).runnableInformer(0));
  }

  /**
   * Starts the informer unless it runs already.
   *
   * @return completes once the informer has listed its kind
   */
  public synchronized CompletableFuture<Void> start(SharedIndexInformer<?> informer) {
    return started.computeIfAbsent(informer, i -> i.start().toCompletableFuture());
  }

  /** The kinds listed and watched so far: one watch each. */
  public synchronized List<String> watchedKinds() {
    List<String> kinds = new ArrayList<>();
    byKind.forEach(
        (kind, informer) -> {
          if (started.containsKey(informer)) {
            kinds.add(kind);
          }
        });
    return kinds;
  }

  @Override
  public synchronized void close() {
    started.keySet().forEach(SharedIndexInformer::stop);
    started.clear();
  }

  private SharedIndexInformer<?> informer(
      String kind, Supplier<SharedIndexInformer<?>> create) {
    return byKind.computeIfAbsent(kind, k -> create.get());
  }
}
