package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreScorePlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Prefers nodes that already hold the pod's container images (as the node's status lists them),
 * by their size, each image's size scaled by the share of nodes holding it so that an image every
 * node has does not draw all pods to one node. The sum is placed between 23 MiB (score 0) and
 * 1000 MiB per container (score 100).
 */
public final class ImageLocality extends BasePlugin implements PreScorePlugin, ScorePlugin {

  public static final String NAME = "ImageLocality";
  private static final long MIB = 1024 * 1024;
  /** Below this, an image is as quick to pull as to find. */
  static final long MIN_THRESHOLD = 23 * MIB;
  static final long MAX_THRESHOLD_PER_CONTAINER = 1000 * MIB;
  private static final CycleState.Key<Images> IMAGES = new CycleState.Key<>(NAME);

  /** The pod's images, each with the share of the cluster's nodes that hold it. */
  private record Images(Map<String, Double> spread, int containers) {}

  public ImageLocality() {
    super(NAME, EnumSet.noneOf(ClusterEvent.class));
  }

  @Override
  public void preScore(CycleState state, Pod pod, List<NodeInfo> feasible) {
    List<Container> containers =
        Stream.concat(pod.getSpec().getContainers().stream(), pod.getSpec().getInitContainers().stream()).toList();
    Set<String> wanted = new HashSet<>();
    containers.forEach(container -> wanted.add(normalized(container.getImage())));
    Map<String, Integer> holders = new HashMap<>();
    List<NodeInfo> nodes = state.nodes();
    for (NodeInfo node : nodes) {
      for (String image : imagesOn(node).keySet()) {
        if (wanted.contains(image)) {
          holders.merge(image, 1, Integer::sum);
        }
      }
    }
    Map<String, Double> spread = new HashMap<>();
    holders.forEach((image, count) -> spread.put(image, (double) count / nodes.size()));
    state.put(IMAGES, new Images(spread, containers.size()));
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Images images = state.get(IMAGES);
    Map<String, Long> onNode = imagesOn(node);
    double sum = 0;
    for (Map.Entry<String, Double> image : images.spread().entrySet()) {
      Long size = onNode.get(image.getKey());
      if (size != null) {
        sum += size * image.getValue();
      }
    }
    long maxThreshold = MAX_THRESHOLD_PER_CONTAINER * images.containers();
    long clamped = Math.max(MIN_THRESHOLD, Math.min(maxThreshold, (long) sum));
    return MAX_SCORE * (clamped - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  /** Each name the node's status gives an image, with the image's size in bytes. */
  private static Map<String, Long> imagesOn(NodeInfo node) {
    Map<String, Long> sizes = new HashMap<>();
    if (node.node().getStatus() != null) {
      for (ContainerImage image : node.node().getStatus().getImages()) {
        long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
        image.getNames().forEach(name -> sizes.put(name, size));
      }
    }
    return sizes;
  }

  /** An image named without a tag or digest is the {@code latest} tag, as the node lists it. */
  static String normalized(String image) {
    if (image == null || image.contains("@") || image.lastIndexOf(':') > image.lastIndexOf('/')) {
      return image;
    }
    return image + ":latest";
  }
}
