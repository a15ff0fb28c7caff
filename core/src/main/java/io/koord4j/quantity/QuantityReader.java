package io.koord4j.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the text of a Kubernetes quantity into its exact amount, and writes amounts back as text
 * it can read, within bounds that keep every read small and quick whatever the text.
 *
 * <p>Kubernetes keeps a decimal exponent as a scale, so {@code 1e500000001} costs it nothing; made
 * whole as an exact number it would hold half a billion digits. So a quantity may have at most
 * {@value #MAX_LENGTH} characters, at most {@value #MAX_DIGITS} digits in its number and a decimal
 * exponent of at most ±{@value #MAX_EXPONENT}; the suffixes reach no further than 10^18 (E) and
 * 2^60 (Ei). An amount read is thus at most about a hundred digits long. The bounds lie far beyond
 * what a cluster holds: Kubernetes keeps amounts to the nano and caps binary ones at 2^63-1 (about
 * 9.2·10^18), which takes 28 digits at most.
 */
final class QuantityReader {
  private QuantityReader() {}

  static final int MAX_LENGTH = 64;
  static final int MAX_DIGITS = 40;
  static final int MAX_EXPONENT = 64;

  /**
   * Kubernetes' quantity grammar: a signed decimal number followed by a binary suffix, a decimal
   * SI suffix or a decimal exponent ({@code 1E} is 10^18, {@code 1E3} is 1000). Checked here
   * because fabric8 accepts some strings the API server rejects.
   */
  private static final Pattern GRAMMAR =
      Pattern.compile(
          "(?<number>[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+))"
              + "((?<binary>[KMGTPE])i|(?<decimal>[numkMGTPE])|[eE](?<exponent>[+-]?[0-9]+))?");

  private static final BigDecimal LARGEST =
      new BigDecimal(BigInteger.TEN.pow(MAX_DIGITS).subtract(BigInteger.ONE), -MAX_EXPONENT);

  /**
   * The exact amount {@code text} stands for.
   *
   * @param fieldPath where the text was read, named in the error message
   * @throws IllegalArgumentException naming the field, the value and the rule it breaks
   */
  static BigDecimal read(String text, String fieldPath) {
    if (text.length() > MAX_LENGTH) {
      throw invalid(fieldPath, text, "has " + text.length() + " characters, more than the "
          + MAX_LENGTH + " a quantity may have");
    }
    Matcher quantity = GRAMMAR.matcher(text);
    if (!quantity.matches()) {
      throw invalid(fieldPath, text, "is not a valid quantity");
    }
    String number = quantity.group("number");
    long digits = digits(number);
    if (digits > MAX_DIGITS) {
      throw invalid(fieldPath, text, "has " + digits + " digits, more than the " + MAX_DIGITS
          + " a quantity may have");
    }
    return new BigDecimal(number).multiply(suffixValue(quantity, fieldPath, text));
  }

  /** Whether a plain or suffixed quantity such as {@code 1500m} is within the bounds. */
  static boolean fits(String text) {
    return text.length() <= MAX_LENGTH && digits(text) <= MAX_DIGITS;
  }

  /**
   * The amount as digits and a decimal exponent within the bounds: rounded up to
   * {@value #MAX_DIGITS} digits and to 10^-{@value #MAX_EXPONENT}, so a request is never read as
   * less than it asks for, and beyond the largest amount the bounds can write, that amount, which
   * is as unlimited as any amount past a long.
   */
  static String boundedText(BigDecimal amount) {
    BigDecimal rounded = amount.round(new MathContext(MAX_DIGITS, RoundingMode.CEILING));
    if (rounded.scale() > MAX_EXPONENT) {
      rounded = rounded.setScale(MAX_EXPONENT, RoundingMode.CEILING);
    }
    if (rounded.abs().compareTo(LARGEST) > 0) {
      rounded = amount.signum() < 0 ? LARGEST.negate() : LARGEST;
    }
    rounded = rounded.stripTrailingZeros();
    return rounded.unscaledValue() + "e" + -rounded.scale();
  }

  private static BigDecimal suffixValue(Matcher quantity, String fieldPath, String text) {
    String binary = quantity.group("binary");
    if (binary != null) {
      int power = 10 * ("KMGTPE".indexOf(binary) + 1);
      return new BigDecimal(BigInteger.ONE.shiftLeft(power));
    }
    String decimal = quantity.group("decimal");
    if (decimal != null) {
      return BigDecimal.ONE.scaleByPowerOfTen(siPower(decimal.charAt(0)));
    }
    String exponent = quantity.group("exponent");
    return exponent == null ? BigDecimal.ONE : BigDecimal.ONE.scaleByPowerOfTen(
        boundedExponent(new BigInteger(exponent), fieldPath, text));
  }

  private static int boundedExponent(BigInteger exponent, String fieldPath, String text) {
    if (exponent.abs().compareTo(BigInteger.valueOf(MAX_EXPONENT)) > 0) {
      throw invalid(fieldPath, text, "has exponent " + exponent + ", beyond the ±" + MAX_EXPONENT
          + " a quantity may have");
    }
    return exponent.intValue();
  }

  private static int siPower(char suffix) {
    return switch (suffix) {
      case 'n' -> -9;
      case 'u' -> -6;
      case 'm' -> -3;
      case 'k' -> 3;
      case 'M' -> 6;
      case 'G' -> 9;
      case 'T' -> 12;
      case 'P' -> 15;
      default -> 18; // E
    };
  }

  private static long digits(String text) {
    return text.chars().filter(c -> c >= '0' && c <= '9').count();
  }

  /** The message quotes at most the first characters of a long value, so it stays readable. */
  private static IllegalArgumentException invalid(String fieldPath, String text, String rule) {
    String shown = text.length() <= MAX_LENGTH ? text : text.substring(0, 16) + "…";
    return new IllegalArgumentException(fieldPath + ": \"" + shown + "\" " + rule);
  }
}
