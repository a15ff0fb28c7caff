package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The pods of a KubeRay cluster spec, shared by RayCluster and by the cluster a RayJob creates: a
 * head pod set of one pod and one pod set per worker group, named {@code head} and after the
 * group as Kueue names them.
 *
 * <p>A worker group runs {@code replicas} replicas, or {@code minReplicas} when the in-tree
 * autoscaler is on (the gang is what the cluster needs to start; it may grow later), each of
 * {@code numOfHosts} pods (default 1).
 */
final class RayClusterSpecs {
  private RayClusterSpecs() {}

  static final String HEAD_POD_SET = "head";

  static List<PodSetInfo> podSets(Map<String, Object> clusterSpec, String path) {
    List<PodSetInfo> podSets = new ArrayList<>();
    String headPath = path + ".headGroupSpec";
    Map<String, Object> head = JobFields.requiredObject(clusterSpec, "headGroupSpec", path);
    podSets.add(
        JobFields.podSet(
            HEAD_POD_SET, 1, JobFields.template(head, "template", headPath), headPath + ".template"));
    boolean autoscaling = JobFields.isTrue(clusterSpec, "enableInTreeAutoscaling");
    List<Map<String, Object>> groups = JobFields.objects(clusterSpec, "workerGroupSpecs", path);
    for (int i = 0; i < groups.size(); i++) {
      Map<String, Object> group = groups.get(i);
      String groupPath = path + ".workerGroupSpecs[" + i + "]";
      String name =
          JobFields.string(group, "groupName")
              .orElseThrow(() -> new IllegalArgumentException(groupPath + ".groupName: is required"));
      int replicas =
          JobFields.count(group, autoscaling ? "minReplicas" : "replicas", groupPath, null);
      int hosts = JobFields.count(group, "numOfHosts", groupPath, 1);
      podSets.add(
          JobFields.podSet(
              name,
              Math.multiplyExact(replicas, hosts),
              JobFields.template(group, "template", groupPath),
              groupPath + ".template"));
    }
    return podSets;
  }

  /** Edits the head template and every worker group's template of a (copied) cluster spec. */
  static void editTemplates(
      Map<String, Object> clusterSpec, String path, UnaryOperator<PodTemplateSpec> edit) {
    String headPath = path + ".headGroupSpec";
    JobFields.editTemplate(
        JobFields.requiredObject(clusterSpec, "headGroupSpec", path), "template", headPath, edit);
    List<Map<String, Object>> groups = JobFields.objects(clusterSpec, "workerGroupSpecs", path);
    for (int i = 0; i < groups.size(); i++) {
      JobFields.editTemplate(
          groups.get(i), "template", path + ".workerGroupSpecs[" + i + "]", edit);
    }
  }
}
