package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer on a custom resource whose CRD may not be installed. While the CRD is missing the
 * informer holds nothing and keeps retrying, so its objects arrive once the CRD is created. A
 * warning names the missing CRD when it is first found missing.
 *
 * @param ready completes once the objects are listed, or once the CRD is found missing
 */
public record OptionalInformer<T extends HasMetadata>(
    SharedIndexInformer<T> informer, CompletableFuture<Void> ready) {

  private static final Logger LOG = LoggerFactory.getLogger(OptionalInformer.class);

  /** Starts an informer on every object of {@code type}, in any namespace. */
  public static <T extends HasMetadata> OptionalInformer<T> start(
      KubernetesClient client, Class<T> type, ResourceEventHandler<? super T> handler) {
    SharedIndexInformer<T> informer = client.resources(type).inAnyNamespace().runnableInformer(0);
    informer.addEventHandler(handler);
    CompletableFuture<Void> ready = new CompletableFuture<>();
    String crd = HasMetadata.getPlural(type) + "." + HasMetadata.getGroup(type);
    AtomicBoolean missing = new AtomicBoolean();
    informer.exceptionHandler(
        (started, error) -> {
          if (isNotFound(error) && missing.compareAndSet(false, true)) {
            LOG.warn("CRD {} is not installed; treating it as empty until it is", crd);
            ready.complete(null);
          }
          return true;
        });
    informer
        .start()
        .whenComplete(
            (listed, error) -> {
              if (missing.getAndSet(false)) {
                LOG.info("CRD {} is installed now; its objects are watched", crd);
              }
              ready.complete(null);
            });
    return new OptionalInformer<>(informer, ready);
  }

  private static boolean isNotFound(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof KubernetesClientException e
          && e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return true;
      }
    }
    return false;
  }
}
