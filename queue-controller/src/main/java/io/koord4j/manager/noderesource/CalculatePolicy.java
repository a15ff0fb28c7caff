package io.koord4j.manager.noderesource;

/** What of the high-priority pods Koordinator subtracts: their usage, requests, or the larger. */
public enum CalculatePolicy {
  USAGE("usage"),
  REQUEST("request"),
  MAX_USAGE_REQUEST("maxUsageRequest");

  private final String value;

  CalculatePolicy(String value) {
    this.value = value;
  }

  static CalculatePolicy parse(String field, String value) {
    for (CalculatePolicy policy : values()) {
      if (policy.value.equals(value)) {
        return policy;
      }
    }
    throw new IllegalArgumentException(field + " must be usage, request or maxUsageRequest, not \"" + value + "\"");
  }
}
