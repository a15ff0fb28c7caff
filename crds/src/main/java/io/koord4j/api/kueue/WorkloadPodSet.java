package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** A Workload pod set: Kueue's PodSet plus its topology request, kept as Kueue wrote it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadPodSet extends PodSet {
  private Map<String, Object> topologyRequest;

  public Map<String, Object> getTopologyRequest() {
    return topologyRequest;
  }

  public void setTopologyRequest(Map<String, Object> topologyRequest) {
    this.topologyRequest = topologyRequest;
  }
}
