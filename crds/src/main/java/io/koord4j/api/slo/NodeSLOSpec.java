package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's NodeSLO spec. koord4j acts on the BE thresholds; the other strategies are kept as
 * given so that a Koordinator manifest round-trips unchanged.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeSLOSpec {
  private ResourceThresholdStrategy resourceUsedThresholdWithBE;

  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private Map<String, Object> resourceQOSStrategy;

  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private Map<String, Object> cpuBurstStrategy;

  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private Map<String, Object> systemStrategy;

  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private Map<String, Object> extensions;

  private List<JsonNode> hostApplications;

  public ResourceThresholdStrategy getResourceUsedThresholdWithBE() {
    return resourceUsedThresholdWithBE;
  }

  public void setResourceUsedThresholdWithBE(ResourceThresholdStrategy resourceUsedThresholdWithBE) {
    this.resourceUsedThresholdWithBE = resourceUsedThresholdWithBE;
  }

  public Map<String, Object> getResourceQOSStrategy() {
    return resourceQOSStrategy;
  }

  public void setResourceQOSStrategy(Map<String, Object> resourceQOSStrategy) {
    this.resourceQOSStrategy = resourceQOSStrategy;
  }

  public Map<String, Object> getCpuBurstStrategy() {
    return cpuBurstStrategy;
  }

  public void setCpuBurstStrategy(Map<String, Object> cpuBurstStrategy) {
    this.cpuBurstStrategy = cpuBurstStrategy;
  }

  public Map<String, Object> getSystemStrategy() {
    return systemStrategy;
  }

  public void setSystemStrategy(Map<String, Object> systemStrategy) {
    this.systemStrategy = systemStrategy;
  }

  public Map<String, Object> getExtensions() {
    return extensions;
  }

  public void setExtensions(Map<String, Object> extensions) {
    this.extensions = extensions;
  }

  public List<JsonNode> getHostApplications() {
    return hostApplications;
  }

  public void setHostApplications(List<JsonNode> hostApplications) {
    this.hostApplications = hostApplications;
  }
}
