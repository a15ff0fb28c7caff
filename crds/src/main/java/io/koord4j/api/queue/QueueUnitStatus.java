package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Condition;
import io.koord4j.api.kueue.AdmissionCheckState;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueUnitStatus {
  /** One of {@link QueueUnitPhase}; the authoritative state, conditions only mirror it. */
  @PrinterColumn(name = "Phase")
  private String phase;

  private Long attempts;

  /**
   * 1-based place among the Enqueued units of its queue, in the order the queue admits them;
   * absent unless Enqueued. {@link #message} says what the unit waits for.
   */
  private Integer positionInQueue;

  private String message;
  private String lastUpdateTime;
  private String lastAllocateTime;
  private List<PodSetAdmission> admissions;
  private List<AdmissionCheckState> admissionChecks;
  private PodState podState;
  private List<Condition> conditions;
  private RequeueState requeueState;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public Long getAttempts() {
    return attempts;
  }

  public void setAttempts(Long attempts) {
    this.attempts = attempts;
  }

  public Integer getPositionInQueue() {
    return positionInQueue;
  }

  public void setPositionInQueue(Integer positionInQueue) {
    this.positionInQueue = positionInQueue;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getLastUpdateTime() {
    return lastUpdateTime;
  }

  public void setLastUpdateTime(String lastUpdateTime) {
    this.lastUpdateTime = lastUpdateTime;
  }

  public String getLastAllocateTime() {
    return lastAllocateTime;
  }

  public void setLastAllocateTime(String lastAllocateTime) {
    this.lastAllocateTime = lastAllocateTime;
  }

  public List<PodSetAdmission> getAdmissions() {
    return admissions;
  }

  public void setAdmissions(List<PodSetAdmission> admissions) {
    this.admissions = admissions;
  }

  public List<AdmissionCheckState> getAdmissionChecks() {
    return admissionChecks;
  }

  public void setAdmissionChecks(List<AdmissionCheckState> admissionChecks) {
    this.admissionChecks = admissionChecks;
  }

  public PodState getPodState() {
    return podState;
  }

  public void setPodState(PodState podState) {
    this.podState = podState;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public RequeueState getRequeueState() {
    return requeueState;
  }

  public void setRequeueState(RequeueState requeueState) {
    this.requeueState = requeueState;
  }
}
