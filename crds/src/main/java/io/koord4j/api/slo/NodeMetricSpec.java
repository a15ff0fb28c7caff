package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeMetricSpec {
  private MetricCollectPolicy metricCollectPolicy;

  public MetricCollectPolicy getMetricCollectPolicy() {
    return metricCollectPolicy;
  }

  public void setMetricCollectPolicy(MetricCollectPolicy metricCollectPolicy) {
    this.metricCollectPolicy = metricCollectPolicy;
  }
}
