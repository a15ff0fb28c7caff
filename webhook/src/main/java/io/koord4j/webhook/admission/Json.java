package io.koord4j.webhook.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** The JSON mapper of the webhook, configured by fabric8 so that model classes round-trip. */
public final class Json {
  private Json() {}

  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** Registers fabric8's modules on {@link #MAPPER}; kept for typed (un)marshalling. */
  public static final KubernetesSerialization KUBERNETES = new KubernetesSerialization(MAPPER, true);

  /**
   * The object's metadata, or null when it has none.
   *
   * @throws IllegalArgumentException when the metadata cannot be read as such
   */
  public static ObjectMeta metadata(JsonNode object) {
    try {
      return MAPPER.treeToValue(object.get("metadata"), ObjectMeta.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("metadata: " + e.getOriginalMessage(), e);
    }
  }
}
