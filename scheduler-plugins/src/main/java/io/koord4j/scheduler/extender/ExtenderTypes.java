package io.koord4j.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's extender wire types ({@code k8s.io/kube-scheduler/extender/v1}). Those Go
 * structs carry no JSON tags, so the wire names are the Go field names ({@code Pod}, {@code
 * NodeNames}, ...); Go reads them in any case, and so does {@link ExtenderServer}.
 */
public final class ExtenderTypes {
  private ExtenderTypes() {}

  /** kube-scheduler's {@code MaxExtenderPriority}: extender scores run 0..10. */
  public static final long MAX_EXTENDER_PRIORITY = 10;

  /**
   * What filter and prioritize receive.
   *
   * @param nodes the candidate nodes in full, when the extender is not {@code nodeCacheCapable}
   * @param nodeNames the candidate node names, when it is
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ExtenderArgs(
      @JsonProperty("Pod") Pod pod,
      @JsonProperty("Nodes") NodeList nodes,
      @JsonProperty("NodeNames") List<String> nodeNames) {}

  /**
   * What filter answers: the nodes that pass, in the form they came in, and why the others fail.
   *
   * @param failedAndUnresolvableNodes failures preemption cannot help
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ExtenderFilterResult(
      @JsonProperty("Nodes") NodeList nodes,
      @JsonProperty("NodeNames") List<String> nodeNames,
      @JsonProperty("FailedNodes") Map<String, String> failedNodes,
      @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
      @JsonProperty("Error") String error) {}

  /** One entry of the HostPriorityList that prioritize answers. */
  public record HostPriority(@JsonProperty("Host") String host, @JsonProperty("Score") long score) {}

  /** What bind receives. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ExtenderBindingArgs(
      @JsonProperty("PodName") String podName,
      @JsonProperty("PodNamespace") String podNamespace,
      @JsonProperty("PodUID") String podUid,
      @JsonProperty("Node") String node) {}

  /** What bind answers; no error means bound. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record ExtenderBindingResult(@JsonProperty("Error") String error) {}
}
