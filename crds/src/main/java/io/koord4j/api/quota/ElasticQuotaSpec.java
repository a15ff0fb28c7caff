package io.koord4j.api.quota;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * Guaranteed ({@code min}) and upper ({@code max}) resources of a quota. The API server checks what
 * one object can check by itself; rules that need the tree (parents, siblings) are the webhook's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "!has(self.min) || self.min.all(r, has(self.max) && r in self.max)",
    messageExpression =
        "'spec.min names resources that spec.max does not: '"
            + " + self.min.filter(r, !has(self.max) || !(r in self.max)).join(', ')",
    reason = "FieldValueInvalid",
    fieldPath = ".min")
@ValidationRule(
    value =
        "!has(self.min) || !has(self.max) || self.min.all(r, !(r in self.max)"
            + " || !isQuantity(string(self.min[r])) || !isQuantity(string(self.max[r]))"
            + " || quantity(string(self.min[r])).compareTo(quantity(string(self.max[r]))) <= 0)",
    messageExpression =
        "'spec.min exceeds spec.max for: ' + self.min.filter(r, r in self.max"
            + " && isQuantity(string(self.min[r])) && isQuantity(string(self.max[r]))"
            + " && quantity(string(self.min[r])).compareTo(quantity(string(self.max[r]))) > 0)"
            + ".join(', ')",
    reason = "FieldValueInvalid",
    fieldPath = ".min")
public class ElasticQuotaSpec {
  @ValidationRule(
      value = NonNegativeQuantities.RULE,
      messageExpression = "'spec.min ' + " + NonNegativeQuantities.MESSAGE)
  private Map<String, Quantity> min;

  @ValidationRule(
      value = NonNegativeQuantities.RULE,
      messageExpression = "'spec.max ' + " + NonNegativeQuantities.MESSAGE)
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

  /** The CEL rule shared by {@code min} and {@code max}, whose {@code self} is the map. */
  static final class NonNegativeQuantities {
    private NonNegativeQuantities() {}

    static final String RULE =
        "self.all(r, isQuantity(string(self[r])) && quantity(string(self[r])).sign() >= 0)";
    static final String MESSAGE =
        "'must hold non-negative quantities; invalid: '"
            + " + self.filter(r, !isQuantity(string(self[r]))"
            + " || quantity(string(self[r])).sign() < 0).join(', ')";
  }
}
