package io.koord4j.quota;

/**
 * One broken tree rule, reported on one quota.
 *
 * @param quota the quota the rule is reported on; empty for a quota without a name
 * @param field the field of that quota at fault
 * @param resource the resource concerned, or empty when the rule is not about one resource
 * @param rule what is wrong, in words
 */
public record QuotaViolation(String quota, Field field, String resource, String rule) {

  /** The parts of an ElasticQuota the tree rules read. */
  public enum Field {
    NAME,
    PARENT,
    MIN,
    MAX,
    SHARED_WEIGHT,
    GUARANTEED
  }

  /** The rule prefixed with the quota it is reported on. */
  @Override
  public String toString() {
    return quota.isEmpty() ? rule : "quota \"" + quota + "\": " + rule;
  }
}
