package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** The flavors and resources Kueue assigned to one pod set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodSetAssignment {
  private String name;
  /** Resource name to ResourceFlavor name. */
  private Map<String, String> flavors;
  private Map<String, Quantity> resourceUsage;
  private Integer count;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Map<String, String> getFlavors() {
    return flavors;
  }

  public void setFlavors(Map<String, String> flavors) {
    this.flavors = flavors;
  }

  public Map<String, Quantity> getResourceUsage() {
    return resourceUsage;
  }

  public void setResourceUsage(Map<String, Quantity> resourceUsage) {
    this.resourceUsage = resourceUsage;
  }

  public Integer getCount() {
    return count;
  }

  public void setCount(Integer count) {
    this.count = count;
  }
}
