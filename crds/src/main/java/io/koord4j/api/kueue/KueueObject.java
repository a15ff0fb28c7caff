package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * A typed read-side view of a Kueue object. Kueue owns these CRDs, so koord4j neither generates
 * nor installs them: it reads them as generic resources (see {@link #context}) and converts them
 * with {@link #from}. Fields koord4j does not use are ignored.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class KueueObject<S, T> {
  public static final String GROUP = "kueue.x-k8s.io";
  /** The version koord4j reads and writes; Kueue still serves v1beta1 too. */
  public static final String VERSION = "v1beta2";

  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private S spec;
  private T status;

  /** Converts a generic resource read from the API server into a typed view. */
  public static <R extends KueueObject<?, ?>> R from(
      GenericKubernetesResource resource, Class<R> type) {
    return Serialization.jsonMapper().convertValue(resource, type);
  }

  /** Addresses a Kueue kind for {@code client.genericKubernetesResources(context)}. */
  static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }

  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public S getSpec() {
    return spec;
  }

  public void setSpec(S spec) {
    this.spec = spec;
  }

  public T getStatus() {
    return status;
  }

  public void setStatus(T status) {
    this.status = status;
  }
}
