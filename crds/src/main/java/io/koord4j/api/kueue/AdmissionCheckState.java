package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The state of one admission check on a workload or queue unit, in Kueue's shape. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdmissionCheckState {
  public static final String PENDING = "Pending";
  public static final String READY = "Ready";
  public static final String RETRY = "Retry";
  public static final String REJECTED = "Rejected";

  private String name;
  private String state;
  private String lastTransitionTime;
  private String message;
  private Integer requeueAfterSeconds;
  private Integer retryCount;
  private List<PodSetUpdate> podSetUpdates;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public Integer getRequeueAfterSeconds() {
    return requeueAfterSeconds;
  }

  public void setRequeueAfterSeconds(Integer requeueAfterSeconds) {
    this.requeueAfterSeconds = requeueAfterSeconds;
  }

  public Integer getRetryCount() {
    return retryCount;
  }

  public void setRetryCount(Integer retryCount) {
    this.retryCount = retryCount;
  }

  public List<PodSetUpdate> getPodSetUpdates() {
    return podSetUpdates;
  }

  public void setPodSetUpdates(List<PodSetUpdate> podSetUpdates) {
    this.podSetUpdates = podSetUpdates;
  }
}
