package io.koord4j.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The JSON (de)serialization of koord4j's API clients: fabric8's, except that objects are read and
 * written without {@code metadata.managedFields}.
 *
 * <p>Every object the API server sends carries its managedFields, often the largest part of a
 * small object's metadata, and no koord4j component reads them; building them is a share of the
 * CPU spent on each watch event. Leaving them out of writes is safe: the API server keeps an
 * object's managedFields when an update or patch does not name them.
 */
public final class ClientSerialization {
  private ClientSerialization() {}

  /** A new serialization for one client. */
  public static KubernetesSerialization withoutManagedFields() {
    ObjectMapper mapper = new ObjectMapper().addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    return new KubernetesSerialization(mapper, true);
  }

  @JsonIgnoreProperties("managedFields")
  private abstract static class WithoutManagedFields {}
}
