package io.koord4j.api.device;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Where a device sits: CPU socket, NUMA node, PCIe switch and PCI bus address. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeviceTopology {
  private Integer socketID;
  /** The NUMA node. */
  private Integer nodeID;
  private String pcieID;
  private String busID;

  public Integer getSocketID() {
    return socketID;
  }

  public void setSocketID(Integer socketID) {
    this.socketID = socketID;
  }

  public Integer getNodeID() {
    return nodeID;
  }

  public void setNodeID(Integer nodeID) {
    this.nodeID = nodeID;
  }

  public String getPcieID() {
    return pcieID;
  }

  public void setPcieID(String pcieID) {
    this.pcieID = pcieID;
  }

  public String getBusID() {
    return busID;
  }

  public void setBusID(String busID) {
    this.busID = busID;
  }
}
