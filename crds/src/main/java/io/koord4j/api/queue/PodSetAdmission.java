package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** How many pods of one pod set were admitted, what they hold and how many run. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetAdmission {
  private String name;
  private Long replicas;
  private Map<String, Quantity> resources;
  private Long running;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Long getReplicas() {
    return replicas;
  }

  public void setReplicas(Long replicas) {
    this.replicas = replicas;
  }

  public Map<String, Quantity> getResources() {
    return resources;
  }

  public void setResources(Map<String, Quantity> resources) {
    this.resources = resources;
  }

  public Long getRunning() {
    return running;
  }

  public void setRunning(Long running) {
    this.running = running;
  }
}
