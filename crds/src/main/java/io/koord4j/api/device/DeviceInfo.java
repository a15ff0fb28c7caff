package io.koord4j.api.device;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** One device of a node; a GPU carries koordinator.sh/gpu-core, gpu-memory and gpu-memory-ratio. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeviceInfo {
  public static final String TYPE_GPU = "gpu";
  public static final String TYPE_RDMA = "rdma";
  public static final String TYPE_FPGA = "fpga";

  private String type;
  /** The device UUID. */
  private String id;
  private Integer minor;
  private Integer moduleID;
  private Boolean health;
  private Map<String, Quantity> resources;
  private DeviceTopology topology;
  private Map<String, String> labels;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public Integer getMinor() {
    return minor;
  }

  public void setMinor(Integer minor) {
    this.minor = minor;
  }

  public Integer getModuleID() {
    return moduleID;
  }

  public void setModuleID(Integer moduleID) {
    this.moduleID = moduleID;
  }

  public Boolean getHealth() {
    return health;
  }

  public void setHealth(Boolean health) {
    this.health = health;
  }

  public Map<String, Quantity> getResources() {
    return resources;
  }

  public void setResources(Map<String, Quantity> resources) {
    this.resources = resources;
  }

  public DeviceTopology getTopology() {
    return topology;
  }

  public void setTopology(DeviceTopology topology) {
    this.topology = topology;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }
}
