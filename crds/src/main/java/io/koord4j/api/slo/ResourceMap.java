package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.device.DeviceInfo;
import java.util.List;
import java.util.Map;

/** Usage as Koordinator reports it: a resource list, plus per-device usage. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceMap {
  private Map<String, Quantity> resources;
  private List<DeviceInfo> devices;

  public Map<String, Quantity> getResources() {
    return resources;
  }

  public void setResources(Map<String, Quantity> resources) {
    this.resources = resources;
  }

  public List<DeviceInfo> getDevices() {
    return devices;
  }

  public void setDevices(List<DeviceInfo> devices) {
    this.devices = devices;
  }
}
