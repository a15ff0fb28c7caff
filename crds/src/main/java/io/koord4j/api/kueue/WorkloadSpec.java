package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpec {
  private List<WorkloadPodSet> podSets;
  /** The LocalQueue the workload was submitted to. */
  private String queueName;
  private Integer priority;

  public List<WorkloadPodSet> getPodSets() {
    return podSets;
  }

  public void setPodSets(List<WorkloadPodSet> podSets) {
    this.podSets = podSets;
  }

  public String getQueueName() {
    return queueName;
  }

  public void setQueueName(String queueName) {
    this.queueName = queueName;
  }

  public Integer getPriority() {
    return priority;
  }

  public void setPriority(Integer priority) {
    this.priority = priority;
  }
}
