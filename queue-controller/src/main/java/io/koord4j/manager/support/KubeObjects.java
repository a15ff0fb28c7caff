package io.koord4j.manager.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.zjsonpatch.JsonDiff;
import io.koord4j.events.Events;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Small client idioms shared by the controllers. */
public final class KubeObjects {
  private KubeObjects() {}

  private static final Logger LOG = LoggerFactory.getLogger(KubeObjects.class);
  /** The event source of everything the manager reports. */
  public static final String COMPONENT = "koord4j-manager";

  /**
   * Replaces the object's status whole by one JSON patch: a field no longer given leaves it. The
   * object is the informer's copy; it names the target, so nothing is read from the API server
   * first (as {@code withName(...).editStatus} would).
   */
  public static void replaceStatus(KubernetesClient client, HasMetadata object, Object status) {
    client.resource(object).subresource("status").patch(
        PatchContext.of(PatchType.JSON),
        Serialization.asJson(List.of(Map.of("op", "add", "path", "/status", "value", status))));
  }

  /**
   * Writes what {@code after} changes in {@code before} as one JSON patch of those fields alone.
   * It tests the object's UID, not its resourceVersion: a status the object's own controller wrote
   * since {@code before} was read does not make it conflict and wait for a retry, while an object
   * deleted and made again under the same name is left alone.
   */
  public static <T extends HasMetadata> T patchChanges(KubernetesClient client, T before, T after) {
    ObjectMapper mapper = Serialization.jsonMapper();
    ArrayNode patch = mapper.createArrayNode();
    patch.addObject().put("op", "test").put("path", "/metadata/uid").put("value", before.getMetadata().getUid());
    patch.addAll((ArrayNode) JsonDiff.asJson(mapper.valueToTree(before), mapper.valueToTree(after)));
    return client.resource(before).patch(PatchContext.of(PatchType.JSON), patch.toString());
  }

  /**
   * Creates the object; one that exists already (a stale cache did not show it) is fine.
   *
   * @return whether this call created it
   */
  public static boolean createIfAbsent(KubernetesClient client, HasMetadata object) {
    try {
      client.resource(object).create();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return false;
    }
  }

  /** A Kubernetes Event about the object; a failure is only logged, events are best effort. */
  public static void event(
      KubernetesClient client,
      HasMetadata object,
      String type,
      String reason,
      String message,
      Instant now) {
    String namespace = object.getMetadata().getNamespace();
    try {
      client
          .v1()
          .events()
          .inNamespace(namespace)
          .resource(
              Events.about(object, type, reason, message, now)
                  .withNewSource()
                  .withComponent(COMPONENT)
                  .endSource()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      LOG.debug(
          "cannot record event {} on {} {}/{}",
          reason, object.getKind(), namespace, object.getMetadata().getName(), e);
    }
  }
}
