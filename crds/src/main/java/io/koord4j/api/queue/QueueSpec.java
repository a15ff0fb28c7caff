package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueSpec {
  @PrinterColumn(name = "Policy")
  private String queuePolicy;

  @PrinterColumn(name = "Priority")
  private Integer priority;

  private String priorityClassName;
  private List<QueueAdmissionCheck> admissionChecks;

  public String getQueuePolicy() {
    return queuePolicy;
  }

  public void setQueuePolicy(String queuePolicy) {
    this.queuePolicy = queuePolicy;
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

  public List<QueueAdmissionCheck> getAdmissionChecks() {
    return admissionChecks;
  }

  public void setAdmissionChecks(List<QueueAdmissionCheck> admissionChecks) {
    this.admissionChecks = admissionChecks;
  }
}
