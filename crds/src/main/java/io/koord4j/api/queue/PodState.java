package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Counts of the job's pods, as last observed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodState {
  private Integer running;
  private Integer pending;

  public Integer getRunning() {
    return running;
  }

  public void setRunning(Integer running) {
    this.running = running;
  }

  public Integer getPending() {
    return pending;
  }

  public void setPending(Integer pending) {
    this.pending = pending;
  }
}
