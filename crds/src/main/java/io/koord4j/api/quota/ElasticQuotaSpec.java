package io.koord4j.api.quota;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * Guaranteed ({@code min}) and upper ({@code max}) resources of a quota. The API server checks what
 * one object can check by itself; rules that need the tree (parents, siblings) are the webhook's.
 *
 * <p>The API server prices every CEL call on an int-or-string at its 3 MB worst case, so each rule
 * stays within budget only for a bounded number of resources: 7 in {@code min} (two quantity
 * parses each) and 16 in {@code max}. Messages name the first offending resource.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "!has(self.min) || self.min.all(r, has(self.max) && r in self.max)",
    messageExpression =
        "'spec.min names a resource that spec.max does not: '"
            + " + self.min.filter(r, !has(self.max) || !(r in self.max))[0]",
    reason = "FieldValueInvalid",
    fieldPath = ".min")
@ValidationRule(
    value = "!has(self.min) || !has(self.max) || self.min.all(r, !(r in self.max) || " + ElasticQuotaSpec.MIN_WITHIN_MAX + ")",
    messageExpression =
        "'spec.min exceeds spec.max for ' + self.min.filter(r, r in self.max && !("
            + ElasticQuotaSpec.MIN_WITHIN_MAX
            + "))[0]",
    reason = "FieldValueInvalid",
    fieldPath = ".min")
public class ElasticQuotaSpec {
  static final String MIN_WITHIN_MAX =
      "quantity(string(self.min[r])).compareTo(quantity(string(self.max[r]))) <= 0";
  /** A quantity is negative when its text starts with a minus sign. */
  static final String NEGATIVE = "(type(self[r]) == int ? self[r] < 0 : string(self[r]).startsWith('-'))";

  @Size(max = 7)
  @ValidationRule(
      value = "!self.exists(r, " + NEGATIVE + ")",
      messageExpression = "'spec.min must not be negative for ' + self.filter(r, " + NEGATIVE + ")[0]",
      reason = "FieldValueInvalid")
  private Map<String, Quantity> min;

  @Size(max = 16)
  @ValidationRule(
      value = "!self.exists(r, " + NEGATIVE + ")",
      messageExpression = "'spec.max must not be negative for ' + self.filter(r, " + NEGATIVE + ")[0]",
      reason = "FieldValueInvalid")
  private Map<String, Quantity> max;

  public Map<String, Quantity> getMin() {
    return min;
  }

  public void setMin(Map<String, Quantity> min) {
    this.min = min;
  }

  public Map<String, Quantity> getMax() {
    return max;
  }

  public void setMax(Map<String, Quantity> max) {
    this.max = max;
  }
}
