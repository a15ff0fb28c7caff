package io.koord4j.device;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/** Kubernetes quantity strings to and from the whole numbers this package computes with. */
final class Quantities {
  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  private Quantities() {}

  /**
   * The value of {@code text} as a whole non-negative number.
   *
   * @param what names the value in the error, e.g. {@code resource koordinator.sh/gpu}
   */
  static long wholeNumber(String what, String text) {
    BigDecimal value;
    try {
      value = Quantity.getAmountInBytes(new Quantity(text));
    } catch (RuntimeException e) {
      throw new InvalidDeviceSpecException(what + ": \"" + text + "\" is not a quantity");
    }
    if (value.signum() < 0 || value.stripTrailingZeros().scale() > 0) {
      throw new InvalidDeviceSpecException(
          what + ": \"" + text + "\" must be a whole number, not negative");
    }
    return value.longValueExact();
  }

  /** Bytes in the largest binary unit that divides them exactly: 85899345920 is "80Gi". */
  static String bytes(long amount) {
    if (amount == 0) {
      return "0";
    }
    String suffix = "";
    for (String next : BINARY_SUFFIXES) {
      if (amount % 1024 != 0) {
        break;
      }
      amount /= 1024;
      suffix = next;
    }
    return amount + suffix;
  }
}
