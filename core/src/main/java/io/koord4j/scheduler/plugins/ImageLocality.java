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
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
  /** Images smaller than this add nothing: pulling them costs little. */
  static final long MIN_THRESHOLD = 23 * MIB;
  static final long MAX_THRESHOLD_PER_CONTAINER = 1000 * MIB;
  private static final CycleState.Key<Images> IMAGES = new CycleState.Key<>(NAME);

  /**
   * @param images each container's image, init containers included, as nodes name them
   * @param spread each of those images some node holds, with the share of nodes holding it
   */
  private record Images(List<String> images, Map<String, Double> spread) {}

  public ImageLocality() {
    super(NAME, EnumSet.noneOf(ClusterEvent.class));
  }

  @Override
  public void preScore(CycleState state, Pod pod, List<NodeInfo> feasible) {
    List<String> images =
        Stream.concat(pod.getSpec().getContainers().stream(), pod.getSpec().getInitContainers().stream())
            .map(Container::getImage)
            .filter(Objects::nonNull)
            .map(ImageLocality::normalized)
            .toList();
    Set<String> wanted = Set.copyOf(images);
    Map<String, Integer> holders = new HashMap<>();
    List<NodeInfo> nodes = state.nodes();
    for (NodeInfo node : nodes) {
      for (ContainerImage image : imagesOn(node)) {
        for (String name : image.getNames()) {
          if (wanted.contains(name)) {
            holders.merge(name, 1, Integer::sum);
          }
        }
      }
    }
    Map<String, Double> spread = new HashMap<>();
    holders.forEach((image, count) -> spread.put(image, (double) count / nodes.size()));
    state.put(IMAGES, new Images(images, spread));
  }

  /** A container whose image another container shares counts it again, as in kube-scheduler. */
  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Images pods = state.get(IMAGES);
    double sum = 0;
    for (String image : pods.images()) {
      Double share = pods.spread().get(image);
      if (share != null) {
        sum += sizeOn(node, image) * share;
      }
    }
    long maxThreshold = MAX_THRESHOLD_PER_CONTAINER * pods.images().size();
    long clamped = Math.max(MIN_THRESHOLD, Math.min(maxThreshold, (long) sum));
    return MAX_SCORE * (clamped - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  /** The size in bytes of the image the node's status lists under {@code name}, 0 when it lists none. */
  private static long sizeOn(NodeInfo node, String name) {
    for (ContainerImage image : imagesOn(node)) {
      if (image.getNames().contains(name)) {
        return image.getSizeBytes() == null ? 0 : image.getSizeBytes();
      }
    }
    return 0;
  }

  private static List<ContainerImage> imagesOn(NodeInfo node) {
    return node.node().getStatus() == null ? List.of() : node.node().getStatus().getImages();
  }

  /** An image named without a tag or digest is the {@code latest} tag, as the node lists it. */
  static String normalized(String image) {
    if (image.contains("@") || image.lastIndexOf(':') > image.lastIndexOf('/')) {
      return image;
    }
    return image + ":latest";
  }
}
