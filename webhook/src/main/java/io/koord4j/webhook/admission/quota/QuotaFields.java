package io.koord4j.webhook.admission.quota;

import io.koord4j.api.WellKnown;
import io.koord4j.quota.QuotaViolation.Field;

/** Where each part of the quota tree's view lives in an ElasticQuota object. */
final class QuotaFields {
  private QuotaFields() {}

  static final String PARENT = label(WellKnown.QUOTA_PARENT);
  static final String IS_PARENT = label(WellKnown.QUOTA_IS_PARENT);
  static final String TREE_ID = label(WellKnown.QUOTA_TREE_ID);

  /** The path of {@code field}, narrowed to {@code resource} when there is one. */
  static String path(Field field, String resource) {
    String path =
        switch (field) {
          case NAME -> "metadata.name";
          case PARENT -> PARENT;
          case MIN -> "spec.min";
          case MAX -> "spec.max";
          case SHARED_WEIGHT -> annotation(WellKnown.QUOTA_SHARED_WEIGHT);
          case GUARANTEED -> annotation(WellKnown.QUOTA_GUARANTEED);
        };
    return resource.isEmpty() ? path : path + "[" + resource + "]";
  }

  static String label(String key) {
    return "metadata.labels[" + key + "]";
  }

  static String annotation(String key) {
    return "metadata.annotations[" + key + "]";
  }
}
