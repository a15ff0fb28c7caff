package io.koord4j.scheduler.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import java.util.Map;

/** Sets one annotation on a pod with a merge patch, which touches no other field. */
public final class ApiPodAnnotator implements DeviceShare.PodAnnotator {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;

  public ApiPodAnnotator(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void annotate(Pod pod, String key, String value) {
    String patch;
    try {
      patch = JSON.writeValueAsString(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an annotation patch", e);
    }
    client
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }
}
