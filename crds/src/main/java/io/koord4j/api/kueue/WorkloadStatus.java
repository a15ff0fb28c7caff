package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadStatus {
  public static final String QUOTA_RESERVED = "QuotaReserved";
  public static final String ADMITTED = "Admitted";
  public static final String EVICTED = "Evicted";
  public static final String FINISHED = "Finished";
  public static final String PODS_READY = "PodsReady";

  private Admission admission;
  private List<Condition> conditions;
  private List<AdmissionCheckState> admissionChecks;

  public Admission getAdmission() {
    return admission;
  }

  public void setAdmission(Admission admission) {
    this.admission = admission;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public List<AdmissionCheckState> getAdmissionChecks() {
    return admissionChecks;
  }

  public void setAdmissionChecks(List<AdmissionCheckState> admissionChecks) {
    this.admissionChecks = admissionChecks;
  }

  /** Where Kueue reserved quota for the workload. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Admission {
    private String clusterQueue;
    private List<PodSetAssignment> podSetAssignments;

    public String getClusterQueue() {
      return clusterQueue;
    }

    public void setClusterQueue(String clusterQueue) {
      this.clusterQueue = clusterQueue;
    }

    public List<PodSetAssignment> getPodSetAssignments() {
      return podSetAssignments;
    }

    public void setPodSetAssignments(List<PodSetAssignment> podSetAssignments) {
      this.podSetAssignments = podSetAssignments;
    }
  }
}
