package io.koord4j.webhook.admission.quota;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.webhook.admission.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** ElasticQuota objects as the quota tree sees them, in base units (milli-CPU, bytes, counts). */
final class QuotaSpecs {
  private QuotaSpecs() {}

  private static final TypeReference<Map<String, Quantity>> RESOURCE_LIST =
      new TypeReference<>() {};

  /**
   * @throws IllegalArgumentException naming the field, when an amount or a resource-list
   *     annotation cannot be read
   */
  static QuotaSpec of(ElasticQuota quota) {
    Map<String, String> labels = labels(quota);
    return new QuotaSpec(
        quota.getMetadata().getName(),
        labels.getOrDefault(WellKnown.QUOTA_PARENT, ""),
        amounts(quota.getSpec() == null ? null : quota.getSpec().getMin(), "spec.min"),
        amounts(quota.getSpec() == null ? null : quota.getSpec().getMax(), "spec.max"),
        annotation(quota, WellKnown.QUOTA_SHARED_WEIGHT).orElse(null),
        annotation(quota, WellKnown.QUOTA_GUARANTEED).orElse(null),
        !"false".equals(labels.get(WellKnown.QUOTA_ALLOW_LENT_RESOURCE)),
        "true".equals(labels.get(WellKnown.QUOTA_IS_PARENT)));
  }

  static Map<String, String> labels(ElasticQuota quota) {
    Map<String, String> labels = quota.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  /** A resource-list annotation (JSON), when present. */
  private static Optional<ResourceVector> annotation(ElasticQuota quota, String key) {
    Map<String, String> annotations = quota.getMetadata().getAnnotations();
    String json = annotations == null ? null : annotations.get(key);
    if (json == null || json.isBlank()) {
      return Optional.empty();
    }
    String path = QuotaFields.annotation(key);
    try {
      return Optional.of(amounts(Json.MAPPER.readValue(json, RESOURCE_LIST), path));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          path + ": not a JSON resource list such as {\"cpu\":\"4\"}: " + e.getOriginalMessage());
    }
  }

  /** Negative amounts are kept: they are for the tree rules to report. */
  private static ResourceVector amounts(Map<String, Quantity> quantities, String path) {
    if (quantities == null) {
      return ResourceVector.EMPTY;
    }
    Map<String, Long> amounts = new HashMap<>();
    quantities.forEach(
        (resource, quantity) -> amounts.put(resource, baseUnits(resource, quantity, path)));
    return ResourceVector.of(amounts);
  }

  /** Rounded up: a fraction of a base unit still counts. */
  private static long baseUnits(String resource, Quantity quantity, String path) {
    try {
      BigDecimal amount = Quantity.getAmountInBytes(quantity);
      BigDecimal scaled = resource.equals("cpu") ? amount.movePointRight(3) : amount;
      return scaled.setScale(0, RoundingMode.CEILING).longValueExact();
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(
          path + "[" + resource + "]: \"" + quantity + "\" is not a valid quantity");
    }
  }
}
