package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.manager.support.InformerReconciler;
import io.koord4j.manager.support.SharedInformers;
import java.util.Map;
import java.util.Optional;

/**
 * Koordinator's {@code slo-controller-config} ConfigMap, which the colocation controllers read: from
 * {@code KOORD4J_SLO_CONFIG_NAMESPACE}, else koord4j's namespace {@code KOORD4J_NAMESPACE} ({@code
 * koord4j-system}). Read through the process's shared informer of its namespace's ConfigMaps, so
 * the controllers that read it open one watch between them.
 */
public final class SloConfigMap {
  public static final String NAME = "slo-controller-config";

  private final SharedIndexInformer<ConfigMap> maps;
  private final String namespace;

  public SloConfigMap(SharedInformers informers, String namespace) {
    this.maps = informers.of(ConfigMap.class, namespace);
    this.namespace = namespace;
  }

  public static String namespace(Map<String, String> env) {
    return env.getOrDefault("KOORD4J_SLO_CONFIG_NAMESPACE", env.getOrDefault("KOORD4J_NAMESPACE", "koord4j-system"));
  }

  /** The ConfigMap's data, empty when it does not exist. */
  public Map<String, String> data() {
    return Optional.ofNullable(maps.getStore().getByKey(namespace + "/" + NAME))
        .map(map -> map.getData() == null ? Map.<String, String>of() : map.getData())
        .orElse(Map.of());
  }

  /** Has {@code reconciler} reconcile all its objects whenever the ConfigMap is written or deleted. */
  public void triggersAll(InformerReconciler<?> reconciler) {
    reconciler.follow(maps, map -> {
      if (NAME.equals(map.getMetadata().getName())) {
        reconciler.triggerAll();
      }
    });
  }
}
