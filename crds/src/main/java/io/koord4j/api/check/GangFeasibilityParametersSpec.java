package io.koord4j.api.check;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class GangFeasibilityParametersSpec {
  /** Values of {@code topologyScope}. */
  public static final String SCOPE_NONE = "None";

  public static final String SCOPE_NODE = "Node";
  public static final String SCOPE_DOMAIN = "Domain";

  @JsonPropertyDescription(
      "Where the whole gang must fit: None (any nodes, the default), Node (one node) or Domain"
          + " (nodes sharing one value of the node label topologyKey, e.g. a rack or zone)")
  private String topologyScope;

  @JsonPropertyDescription("The node label whose value names a topology domain; required for Domain")
  private String topologyKey;

  @JsonPropertyDescription(
      "How long a workload may stay Pending before the check answers Retry (default: the"
          + " controller's KOORD4J_KUEUE_RETRY_AFTER_SECONDS)")
  private Integer waitBeforeRetrySeconds;

  @JsonPropertyDescription(
      "requeueAfterSeconds sent with Retry (default: the controller's"
          + " KOORD4J_KUEUE_REQUEUE_AFTER_SECONDS)")
  private Integer requeueAfterSeconds;

  public String getTopologyScope() {
    return topologyScope;
  }

  public void setTopologyScope(String topologyScope) {
    this.topologyScope = topologyScope;
  }

  public String getTopologyKey() {
    return topologyKey;
  }

  public void setTopologyKey(String topologyKey) {
    this.topologyKey = topologyKey;
  }

  public Integer getWaitBeforeRetrySeconds() {
    return waitBeforeRetrySeconds;
  }

  public void setWaitBeforeRetrySeconds(Integer waitBeforeRetrySeconds) {
    this.waitBeforeRetrySeconds = waitBeforeRetrySeconds;
  }

  public Integer getRequeueAfterSeconds() {
    return requeueAfterSeconds;
  }

  public void setRequeueAfterSeconds(Integer requeueAfterSeconds) {
    this.requeueAfterSeconds = requeueAfterSeconds;
  }
}
