package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/** ElasticQuotas as tests of namespace binding need them. */
public final class TestQuotas {
  private TestQuotas() {}

  /** A quota living in {@code namespace}, bound also to the namespaces its annotation lists. */
  public static ElasticQuota bound(String name, String namespace, String... listed) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    if (listed.length > 0) {
      quota.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_NAMESPACES,
          Arrays.stream(listed).map(n -> "\"" + n + "\"").collect(Collectors.joining(",", "[", "]"))));
    }
    return quota;
  }
}
