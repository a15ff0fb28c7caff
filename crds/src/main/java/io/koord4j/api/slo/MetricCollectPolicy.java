package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** How the node agent samples and reports; Koordinator's defaults are 300 s and 60 s. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MetricCollectPolicy {
  private Long aggregateDurationSeconds;
  private Long reportIntervalSeconds;
  private AggregatePolicy nodeAggregatePolicy;
  private String nodeMemoryCollectPolicy;

  public Long getAggregateDurationSeconds() {
    return aggregateDurationSeconds;
  }

  public void setAggregateDurationSeconds(Long aggregateDurationSeconds) {
    this.aggregateDurationSeconds = aggregateDurationSeconds;
  }

  public Long getReportIntervalSeconds() {
    return reportIntervalSeconds;
  }

  public void setReportIntervalSeconds(Long reportIntervalSeconds) {
    this.reportIntervalSeconds = reportIntervalSeconds;
  }

  public AggregatePolicy getNodeAggregatePolicy() {
    return nodeAggregatePolicy;
  }

  public void setNodeAggregatePolicy(AggregatePolicy nodeAggregatePolicy) {
    this.nodeAggregatePolicy = nodeAggregatePolicy;
  }

  public String getNodeMemoryCollectPolicy() {
    return nodeMemoryCollectPolicy;
  }

  public void setNodeMemoryCollectPolicy(String nodeMemoryCollectPolicy) {
    this.nodeMemoryCollectPolicy = nodeMemoryCollectPolicy;
  }

  /** The windows (Go durations such as "5m") over which node usage is aggregated. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class AggregatePolicy {
    private List<String> durations;

    public List<String> getDurations() {
      return durations;
    }

    public void setDurations(List<String> durations) {
      this.durations = durations;
    }
  }
}
