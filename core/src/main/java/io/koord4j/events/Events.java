package io.koord4j.events;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;

/**
 * Kubernetes Events as every koord4j component reports them: one occurrence (count 1) about one
 * object, in the object's namespace. Components add their source, and may name the Event
 * themselves instead of letting the API server append a suffix.
 */
public final class Events {
  private Events() {}

  /**
   * An Event about {@code object}, named after it with a suffix the API server generates.
   *
   * @param type {@code Normal} or {@code Warning}
   */
  public static EventBuilder about(
      HasMetadata object, String type, String reason, String message, Instant now) {
    String namespace = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    return new EventBuilder()
        .withNewMetadata()
        .withGenerateName(name + ".")
        .withNamespace(namespace)
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(object.getApiVersion())
        .withKind(object.getKind())
        .withNamespace(namespace)
        .withName(name)
        .withUid(object.getMetadata().getUid())
        .endInvolvedObject()
        .withType(type)
        .withReason(reason)
        .withMessage(message)
        .withFirstTimestamp(now.toString())
        .withLastTimestamp(now.toString())
        .withCount(1);
  }
}
