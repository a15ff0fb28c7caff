package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.kueue.PodSet;
import java.util.List;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueUnitSpec {
  private ObjectReference consumerRef;

  @PrinterColumn(name = "Priority")
  private Integer priority;

  private String priorityClassName;

  @PrinterColumn(name = "Queue")
  private String queue;

  /** Total resources of the whole job. */
  private Map<String, Quantity> resource;

  private Map<String, Quantity> request;

  @Size(min = 1, max = 8)
  private List<PodSet> podSet;

  /** A unit set inactive is evicted and no longer admitted. */
  @Default("true")
  private Boolean active;

  /** Counted from admission; a unit admitted longer is evicted and deactivated. */
  private Integer maximumExecutionTimeSeconds;

  public ObjectReference getConsumerRef() {
    return consumerRef;
  }

  public void setConsumerRef(ObjectReference consumerRef) {
    this.consumerRef = consumerRef;
  }

  public Integer getPriority() {
    return priority;
  }

  public void setPriority(Integer priority) {
    this.priority = priority;
  }

  public String getPriorityClassName() {
    return priorityClassName;
  }

  public void setPriorityClassName(String priorityClassName) {
    this.priorityClassName = priorityClassName;
  }

  public String getQueue() {
    return queue;
  }

  public void setQueue(String queue) {
    this.queue = queue;
  }

  public Map<String, Quantity> getResource() {
    return resource;
  }

  public void setResource(Map<String, Quantity> resource) {
    this.resource = resource;
  }

  public Map<String, Quantity> getRequest() {
    return request;
  }

  public void setRequest(Map<String, Quantity> request) {
    this.request = request;
  }

  public List<PodSet> getPodSet() {
    return podSet;
  }

  public void setPodSet(List<PodSet> podSet) {
    this.podSet = podSet;
  }

  public Boolean getActive() {
    return active;
  }

  public void setActive(Boolean active) {
    this.active = active;
  }

  /** An unset {@code active} means active, as in koord-queue. */
  public boolean isActive() {
    return active == null || active;
  }

  public Integer getMaximumExecutionTimeSeconds() {
    return maximumExecutionTimeSeconds;
  }

  public void setMaximumExecutionTimeSeconds(Integer maximumExecutionTimeSeconds) {
    this.maximumExecutionTimeSeconds = maximumExecutionTimeSeconds;
  }
}
