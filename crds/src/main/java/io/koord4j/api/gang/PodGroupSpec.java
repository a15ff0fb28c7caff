package io.koord4j.api.gang;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupSpec {
  @PrinterColumn(name = "MinMember")
  private Integer minMember;

  private Map<String, Quantity> minResources;
  private Integer scheduleTimeoutSeconds;

  public Integer getMinMember() {
    return minMember;
  }

  public void setMinMember(Integer minMember) {
    this.minMember = minMember;
  }

  public Map<String, Quantity> getMinResources() {
    return minResources;
  }

  public void setMinResources(Map<String, Quantity> minResources) {
    this.minResources = minResources;
  }

  public Integer getScheduleTimeoutSeconds() {
    return scheduleTimeoutSeconds;
  }

  public void setScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) {
    this.scheduleTimeoutSeconds = scheduleTimeoutSeconds;
  }
}
