package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One informer per kind, in all namespaces (or in the one namespace a kind is read in), shared by
 * every part of a process that reads the kind: the admission loop, the gang-feasibility check, the
 * job reconcilers' QueueUnit events and the batch-resource controller. Each kind is listed and
 * watched once, however many parts read it.
 */
public final class SharedInformers implements AutoCloseable {
  /**
   * The page size of every list. A list with a limit asks for the latest state; without one the
   * informers' first list asks for resourceVersion 0, which the API server answers from its watch
   * cache, and after an etcd restart that cache can lag etcd for seconds. A replica that starts
   * leading rebuilds the admission state from these lists: from a lagging cache it would miss its
   * predecessor's last admissions and admit other units into the quota they hold.
   */
  public static final long LIST_PAGE = 500;

  private final KubernetesClient client;
  /** Marks a kind read in every namespace (or cluster-scoped) in {@link #scopes}. */
  private static final String ALL_NAMESPACES = "";

  private final Map<String, SharedIndexInformer<?>> byKind = new LinkedHashMap<>();
  /** Per kind of a typed informer: the one namespace it is read in, or {@link #ALL_NAMESPACES}. */
  private final Map<String, String> scopes = new HashMap<>();
  private final Map<SharedIndexInformer<?>, CompletableFuture<Void>> started =
      new IdentityHashMap<>();

  /** Per kind, the readers told of this process's own writes (see {@link #wrote}). */
  private final Map<Class<?>, List<Consumer<Object>>> writeReaders = new ConcurrentHashMap<>();

  public SharedInformers(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Tells the readers of the object's kind that this process stored it, as the API server
   * answered the write: they may act on it a watch's round trip before the informer brings its
   * event. That event still comes, so readers take no copy older than one they hold.
   */
  public void wrote(HasMetadata stored) {
    writeReaders.getOrDefault(stored.getClass(), List.of()).forEach(reader -> reader.accept(stored));
  }

  /**
   * Tells {@code reader} of each object of the kind this process {@link #wrote}, on the writing
   * thread, until the returned handle is run.
   */
  public <T extends HasMetadata> Runnable onWrite(Class<T> kind, Consumer<T> reader) {
    Consumer<Object> typed = object -> reader.accept(kind.cast(object));
    writeReaders.computeIfAbsent(kind, k -> new CopyOnWriteArrayList<>()).add(typed);
    return () -> writeReaders.get(kind).remove(typed);
  }

  /** Whether the cluster the informers read serves the kind. */
  public boolean serves(Class<? extends HasMetadata> type) {
    return client.supports(type);
  }

  /** The informer of a typed kind; created on first use, started by {@link #start}. */
  @SuppressWarnings("unchecked")
  public synchronized <T extends HasMetadata> SharedIndexInformer<T> of(Class<T> type) {
    String kind = HasMetadata.getFullResourceName(type);
    String scope = scopes.computeIfAbsent(kind, k -> ALL_NAMESPACES);
    if (!scope.equals(ALL_NAMESPACES)) {
      throw new IllegalStateException(kind + " is read in " + describe(scope) + " already, not in all namespaces");
    }
    return (SharedIndexInformer<T>)
        informer(
            kind,
            () ->
                Namespaced.class.isAssignableFrom(type)
                    ? informer(client.resources(type).inAnyNamespace())
                    : informer(client.resources(type)));
  }

  /**
   * The informer of a namespaced kind that this process reads in one namespace only, such as the
   * colocation ConfigMap's. A kind is shared in one scope: asking for it in another is a mistake.
   */
  @SuppressWarnings("unchecked")
  public synchronized <T extends HasMetadata & Namespaced> SharedIndexInformer<T> of(
      Class<T> type, String namespace) {
    String kind = HasMetadata.getFullResourceName(type);
    String scope = scopes.computeIfAbsent(kind, k -> namespace);
    if (!scope.equals(namespace)) {
      throw new IllegalStateException(
          kind + " is read in " + describe(scope) + " already, not in namespace " + namespace);
    }
    return (SharedIndexInformer<T>)
        informer(kind, () -> informer(client.resources(type).inNamespace(namespace)));
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
                    ? informer(client.genericKubernetesResources(kind).inAnyNamespace())
                    : informer(client.genericKubernetesResources(kind)));
  }

  /**
   * Starts the informer unless it runs already.
   *
   * @return completes once the informer has listed its kind
   */
  public synchronized CompletableFuture<Void> start(SharedIndexInformer<?> informer) {
    return started.computeIfAbsent(informer, i -> i.start().toCompletableFuture());
  }

  /**
   * Whether the informers of these typed kinds have listed them, and so hold them: only a leader
   * starts its informers, and {@link #close} forgets them.
   */
  @SafeVarargs
  public final synchronized boolean haveListed(Class<? extends HasMetadata>... types) {
    return Arrays.stream(types).allMatch(type -> {
      SharedIndexInformer<?> informer = byKind.get(HasMetadata.getFullResourceName(type));
      CompletableFuture<Void> listing = informer == null ? null : started.get(informer);
      return listing != null && listing.isDone() && !listing.isCompletedExceptionally();
    });
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

  private static String describe(String scope) {
    return scope.equals(ALL_NAMESPACES) ? "all namespaces" : "namespace " + scope;
  }

  private SharedIndexInformer<?> informer(
      String kind, Supplier<SharedIndexInformer<?>> create) {
    return byKind.computeIfAbsent(kind, k -> create.get());
  }

  /**
   * An informer that lists in pages of {@link #LIST_PAGE} and keeps its objects without
   * managedFields (see {@link LeanItemStore}).
   */
  private static <T extends HasMetadata> SharedIndexInformer<T> informer(Informable<T> source) {
    return source.withLimit(LIST_PAGE).runnableInformer(0).itemStore(new LeanItemStore<>());
  }
}
