package io.koord4j.yarn.sync;

/**
 * A NodeManager as the ResourceManager of one YARN cluster names it.
 *
 * @param clusterId the YARN cluster ({@code yarn.hadoop.apache.org/cluster-id} of the NodeManager
 *     pod, {@link #DEFAULT_CLUSTER} without it)
 * @param host the host part of the NodeManager's node id
 * @param port the port part of the NodeManager's node id
 */
public record NodeManagerId(String clusterId, String host, int port) {
  /** The cluster of NodeManager pods that name none. */
  public static final String DEFAULT_CLUSTER = "default";

  public static final String NODE_ID_ANNOTATION = "yarn.hadoop.apache.org/node-id";
  public static final String CLUSTER_ID_ANNOTATION = "yarn.hadoop.apache.org/cluster-id";

  /**
   * Reads the node id annotation of a NodeManager pod.
   *
   * @throws IllegalArgumentException naming the annotation and the rule when it is not {@code
   *     <host>:<port>}
   */
  public static NodeManagerId parse(String clusterId, String nodeId) {
    String cluster = clusterId == null || clusterId.isBlank() ? DEFAULT_CLUSTER : clusterId;
    int colon = nodeId == null ? -1 : nodeId.lastIndexOf(':');
    if (colon <= 0 || colon == nodeId.length() - 1) {
      throw invalid(nodeId);
    }
    int port;
    try {
      port = Integer.parseInt(nodeId.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw invalid(nodeId);
    }
    if (port < 1 || port > 65_535) {
      throw invalid(nodeId);
    }
    return new NodeManagerId(cluster, nodeId.substring(0, colon), port);
  }

  /** The node id as YARN prints it. */
  public String nodeId() {
    return host + ":" + port;
  }

  private static IllegalArgumentException invalid(String nodeId) {
    return new IllegalArgumentException(
        "annotation "
            + NODE_ID_ANNOTATION
            + " must be <host>:<port> with a port from 1 to 65535, got '"
            + nodeId
            + "'");
  }
}
