package io.koord4j.testing;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * A test's read-modify-write of an object that controllers also write (a job's status, a quota's
 * status, a pod's conditions) can lose the race and get 409 Conflict, as any client can. Like
 * client-go's RetryOnConflict, the write is read and made again. Each try must read afresh: edit a
 * resource named with {@code withName}, whose {@code edit} reads the object from the server, not
 * {@code resource(item)}, whose {@code edit} starts from the item given.
 */
public final class Conflicts {
  private static final int TRIES = 10;

  private Conflicts() {}

  public static <T> T retrying(Supplier<T> readModifyWrite) {
    for (int attempt = 1; ; attempt++) {
      try {
        return readModifyWrite.get();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == TRIES) {
          throw e;
        }
      }
    }
  }
}
