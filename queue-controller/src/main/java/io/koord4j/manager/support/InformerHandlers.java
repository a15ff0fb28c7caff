package io.koord4j.manager.support;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The event handlers one part of the process adds to the shared informers, removed together when
 * that part stops: the informers run on for the other parts.
 */
public final class InformerHandlers implements AutoCloseable {
  private final Map<SharedIndexInformer<?>, ResourceEventHandler<?>> handlers = new LinkedHashMap<>();

  /** Calls {@code upsert} with each object the informer adds or changes, {@code gone} with each it removes. */
  public synchronized <T> void follow(SharedIndexInformer<T> informer, Consumer<T> upsert, Consumer<T> gone) {
    ResourceEventHandler<T> handler = handler(upsert, gone);
    informer.addEventHandler(handler);
    handlers.put(informer, handler);
  }

  /** A handler that calls {@code upsert} with each object added or changed, {@code gone} with each removed. */
  public static <T> ResourceEventHandler<T> handler(Consumer<T> upsert, Consumer<T> gone) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        upsert.accept(object);
      }

      @Override
      public void onUpdate(T before, T object) {
        upsert.accept(object);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        gone.accept(object);
      }
    };
  }

  /** The informers followed, in the order they were first followed. */
  public synchronized List<SharedIndexInformer<?>> informers() {
    return List.copyOf(handlers.keySet());
  }

  @Override
  public synchronized void close() {
    handlers.forEach(InformerHandlers::remove);
    handlers.clear();
  }

  @SuppressWarnings("unchecked")
  private static <T> void remove(SharedIndexInformer<T> informer, ResourceEventHandler<?> handler) {
    informer.removeEventHandler((ResourceEventHandler<? super T>) handler);
  }
}
