package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodMetricInfo {
  private String name;
  private String namespace;
  private ResourceMap podUsage;
  /** Koordinator priority class: koord-prod, koord-mid, koord-batch or koord-free. */
  private String priority;
  /** Koordinator QoS class: LSE, LSR, LS, BE or SYSTEM. */
  private String qos;

  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private Map<String, Object> extensions;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public ResourceMap getPodUsage() {
    return podUsage;
  }

  public void setPodUsage(ResourceMap podUsage) {
    this.podUsage = podUsage;
  }

  public String getPriority() {
    return priority;
  }

  public void setPriority(String priority) {
    this.priority = priority;
  }

  public String getQos() {
    return qos;
  }

  public void setQos(String qos) {
    this.qos = qos;
  }

  public Map<String, Object> getExtensions() {
    return extensions;
  }

  public void setExtensions(Map<String, Object> extensions) {
    this.extensions = extensions;
  }
}
