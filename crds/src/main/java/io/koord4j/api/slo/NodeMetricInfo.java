package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeMetricInfo {
  private ResourceMap nodeUsage;
  /** Daemons and kernel: node usage minus the sum of pod usage. */
  private ResourceMap systemUsage;
  private List<AggregatedUsage> aggregatedNodeUsages;

  public ResourceMap getNodeUsage() {
    return nodeUsage;
  }

  public void setNodeUsage(ResourceMap nodeUsage) {
    this.nodeUsage = nodeUsage;
  }

  public ResourceMap getSystemUsage() {
    return systemUsage;
  }

  public void setSystemUsage(ResourceMap systemUsage) {
    this.systemUsage = systemUsage;
  }

  public List<AggregatedUsage> getAggregatedNodeUsages() {
    return aggregatedNodeUsages;
  }

  public void setAggregatedNodeUsages(List<AggregatedUsage> aggregatedNodeUsages) {
    this.aggregatedNodeUsages = aggregatedNodeUsages;
  }
}
