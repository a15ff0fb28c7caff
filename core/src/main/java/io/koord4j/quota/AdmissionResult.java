package io.koord4j.quota;

import io.koord4j.quantity.ResourceQuantities;

/**
 * Whether a request fits a leaf quota and its ancestors; when it does not, the first quota (from
 * the leaf up) and resource that block it, with amounts in base units.
 *
 * @param available what the blocking quota still has of the resource: {@code min(runtime, max)}
 *     minus used, never below zero
 */
public record AdmissionResult(
    boolean admissible, String quota, String resource, long requested, long available) {

  static final AdmissionResult ADMISSIBLE = new AdmissionResult(true, null, null, 0, 0);

  static AdmissionResult blocked(String quota, String resource, long requested, long available) {
    return new AdmissionResult(false, quota, resource, requested, Math.max(available, 0));
  }

  /** A sentence for conditions and events, with amounts in Kubernetes quantity notation. */
  public String message() {
    if (admissible) {
      return "fits in quota";
    }
    return "quota \""
        + quota
        + "\" has "
        + quantity(available)
        + " of "
        + resource
        + " available, "
        + quantity(requested)
        + " requested";
  }

  private String quantity(long amount) {
    return ResourceQuantities.format(resource, amount);
  }
}
