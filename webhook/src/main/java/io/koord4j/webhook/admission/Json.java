package io.koord4j.webhook.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** The JSON mapper of the webhook, configured by fabric8 so that model classes round-trip. */
public final class Json {
  private Json() {}

  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** Registers fabric8's modules on {@link #MAPPER}; kept for typed (un)marshalling. */
  public static final KubernetesSerialization KUBERNETES = new KubernetesSerialization(MAPPER, true);
}
