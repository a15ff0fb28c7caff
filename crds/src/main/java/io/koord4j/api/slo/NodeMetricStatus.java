package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeMetricStatus {
  private String updateTime;
  private NodeMetricInfo nodeMetric;
  private List<PodMetricInfo> podsMetric;

  public String getUpdateTime() {
    return updateTime;
  }

  public void setUpdateTime(String updateTime) {
    this.updateTime = updateTime;
  }

  public NodeMetricInfo getNodeMetric() {
    return nodeMetric;
  }

  public void setNodeMetric(NodeMetricInfo nodeMetric) {
    this.nodeMetric = nodeMetric;
  }

  public List<PodMetricInfo> getPodsMetric() {
    return podsMetric;
  }

  public void setPodsMetric(List<PodMetricInfo> podsMetric) {
    this.podsMetric = podsMetric;
  }
}
