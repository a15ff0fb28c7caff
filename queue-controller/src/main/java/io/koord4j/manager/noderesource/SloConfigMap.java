package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Koordinator's {@code slo-controller-config} ConfigMap, which the colocation controllers read: from
 * {@code KOORD4J_SLO_CONFIG_NAMESPACE}, else koord4j's namespace {@code KOORD4J_NAMESPACE} ({@code
 * koord4j-system}). A change of it reconciles every node.
 */
public final class SloConfigMap {
  public static final String NAME = "slo-controller-config";

  private SloConfigMap() {}

  public static String namespace(Map<String, String> env) {
    return env.getOrDefault("KOORD4J_SLO_CONFIG_NAMESPACE", env.getOrDefault("KOORD4J_NAMESPACE", "koord4j-system"));
  }

  /** Watches the ConfigMap in its namespace and maps a change to every primary resource. */
  public static <P extends HasMetadata> InformerEventSource<ConfigMap, P> informer(
      Class<P> primary, String namespace, EventSourceContext<P> context) {
    return new InformerEventSource<>(
        InformerEventSourceConfiguration.from(ConfigMap.class, primary)
            .withNamespaces(namespace)
            .withGenericFilter(map -> NAME.equals(map.getMetadata().getName()))
            .withSecondaryToPrimaryMapper(map -> context.getPrimaryCache().list()
                .map(ResourceID::fromResource).collect(Collectors.toSet()))
            .build(),
        context);
  }

  /** The ConfigMap's data, empty when it does not exist. */
  public static Map<String, String> data(Context<?> context) {
    // The informer holds every ConfigMap of the namespace; only the named one is ours.
    return context.getSecondaryResources(ConfigMap.class).stream()
        .filter(map -> NAME.equals(map.getMetadata().getName()))
        .findFirst()
        .map(map -> map.getData() == null ? Map.<String, String>of() : map.getData())
        .orElse(Map.of());
  }
}
