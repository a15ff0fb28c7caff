package io.koord4j.api.quota;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ElasticQuotaStatus {
  /** Resources held by admitted pods of this quota and, for a parent, its descendants. */
  private Map<String, Quantity> used;

  public Map<String, Quantity> getUsed() {
    return used;
  }

  public void setUsed(Map<String, Quantity> used) {
    this.used = used;
  }
}
