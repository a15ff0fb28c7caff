package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** Usage over one window, by statistic ("avg", "p50", "p90", "p95", "p99"). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AggregatedUsage {
  private Map<String, ResourceMap> usage;
  /** A Go duration such as "5m0s". */
  private String duration;

  public Map<String, ResourceMap> getUsage() {
    return usage;
  }

  public void setUsage(Map<String, ResourceMap> usage) {
    this.usage = usage;
  }

  public String getDuration() {
    return duration;
  }

  public void setDuration(String duration) {
    this.duration = duration;
  }
}
