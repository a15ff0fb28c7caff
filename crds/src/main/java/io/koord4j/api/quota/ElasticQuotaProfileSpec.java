package io.koord4j.api.quota;

import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Map;

/** Which nodes make a quota tree, and the tree's root quota. */
public class ElasticQuotaProfileSpec {
  /** The root quota of the tree, created in the profile's namespace if missing. */
  @Required private String quotaName;

  /** Labels the root quota carries besides the ones the manager sets. */
  private Map<String, String> quotaLabels;

  /**
   * The share of the nodes' allocatable resources the tree gets, a decimal in (0, 1] (default 1),
   * e.g. 0.9 to leave room for fragmentation.
   */
  private String resourceRatio;

  /** The nodes of the tree. */
  @Required private LabelSelector nodeSelector;

  public String getQuotaName() {
    return quotaName;
  }

  public void setQuotaName(String quotaName) {
    this.quotaName = quotaName;
  }

  public Map<String, String> getQuotaLabels() {
    return quotaLabels;
  }

  public void setQuotaLabels(Map<String, String> quotaLabels) {
    this.quotaLabels = quotaLabels;
  }

  public String getResourceRatio() {
    return resourceRatio;
  }

  public void setResourceRatio(String resourceRatio) {
    this.resourceRatio = resourceRatio;
  }

  public LabelSelector getNodeSelector() {
    return nodeSelector;
  }

  public void setNodeSelector(LabelSelector nodeSelector) {
    this.nodeSelector = nodeSelector;
  }
}
