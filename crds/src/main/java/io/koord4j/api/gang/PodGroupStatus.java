package io.koord4j.api.gang;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PrinterColumn;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupStatus {
  @PrinterColumn(name = "Phase")
  private String phase;

  @PrinterColumn(name = "Scheduled")
  private Integer scheduled;

  @PrinterColumn(name = "Running")
  private Integer running;

  private Integer succeeded;
  private Integer failed;
  private String scheduleStartTime;
  private String occupiedBy;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public Integer getScheduled() {
    return scheduled;
  }

  public void setScheduled(Integer scheduled) {
    this.scheduled = scheduled;
  }

  public Integer getRunning() {
    return running;
  }

  public void setRunning(Integer running) {
    this.running = running;
  }

  public Integer getSucceeded() {
    return succeeded;
  }

  public void setSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public String getScheduleStartTime() {
    return scheduleStartTime;
  }

  public void setScheduleStartTime(String scheduleStartTime) {
    this.scheduleStartTime = scheduleStartTime;
  }

  public String getOccupiedBy() {
    return occupiedBy;
  }

  public void setOccupiedBy(String occupiedBy) {
    this.occupiedBy = occupiedBy;
  }
}
