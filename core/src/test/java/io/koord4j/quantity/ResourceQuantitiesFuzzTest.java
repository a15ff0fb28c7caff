package io.koord4j.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Quantities as a tenant may write them, valid, absurd or broken: each is read quickly into an
 * amount or refused with a message naming the field, the value and the rule.
 */
class ResourceQuantitiesFuzzTest {

  private static final String FIELD = "spec.max[cpu]";
  private static final int INPUTS = 100_000;
  private static final long MILLISECOND = 1_000_000;
  private static final List<String> RULES =
      List.of(
          "is not a valid quantity",
          "characters, more than the 64 a quantity may have",
          "digits, more than the 40 a quantity may have",
          "beyond the ±64 a quantity may have",
          "must not be negative");
  private static final String[] BINARY = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final String[] DECIMAL = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  private static final int[] DECIMAL_POWERS = {-9, -6, -3, 0, 3, 6, 9, 12, 15, 18};

  @Test
  void everyInputEndsWithinAMillisecondWithAnAmountOrAClearError() {
    List<Quantity> inputs = inputs(new Random(20240611));
    inputs.forEach(ResourceQuantitiesFuzzTest::read); // lets the JIT compile the reader first

    long[] nanos = new long[inputs.size()];
    int slowest = 0;
    List<String> unclear = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      Quantity input = inputs.get(i);
      nanos[i] = nanosToRead(input);
      slowest = nanos[i] > nanos[slowest] ? i : slowest;
      if (!isAnAmountOrAClearError(input, read(input))) {
        unclear.add(shown(input));
      }
    }

    String slowestInput = shown(inputs.get(slowest));
    long slowestNanos = nanos[slowest];
    Arrays.sort(nanos);
    System.out.printf(
        "%d quantities read: median %.1f µs, 99.9th percentile %.1f µs, slowest %.1f µs (%s)%n",
        nanos.length, nanos[nanos.length / 2] / 1e3, nanos[nanos.length * 999 / 1000] / 1e3,
        slowestNanos / 1e3, slowestInput);
    assertThat(unclear).as("inputs neither read nor refused with a clear error").isEmpty();
    assertThat(slowestNanos).as("the slowest read, of %s", slowestInput).isLessThan(MILLISECOND);
  }

  @Test
  void validQuantitiesReadAsAStraightforwardReferenceAndAsBeforeAndWriteBackExactly() {
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      Valid valid = valid(random);
      Quantity quantity = new Quantity(valid.text());

      BigDecimal read = ResourceQuantities.parse(quantity, FIELD);

      assertThat(read).as(valid.text()).isEqualByComparingTo(valid.amount());
      if (!valid.text().endsWith("Ei")) { // fabric8 rounded 2^60 to 16 digits
        assertThat(read)
            .as("%s as fabric8 read it before", valid.text())
            .isEqualByComparingTo(Quantity.getAmountInBytes(quantity));
      }
      assertThat(ResourceQuantities.parse(ResourceQuantities.toQuantity(read), FIELD))
          .as("%s written and read back", valid.text())
          .isEqualTo(read);
    }
  }

  /** The amount, or the exception a refused quantity throws. */
  private static Object read(Quantity input) {
    try {
      return ResourceQuantities.parse(input, FIELD);
    } catch (IllegalArgumentException e) {
      return e;
    }
  }

  /**
   * How long the input takes to read. One that takes over a tenth of the limit is read again, up
   * to four times, and keeps its best time: a pause of the machine (a collection, another
   * process) does not make a slow read; a slow read is slow every time.
   */
  private static long nanosToRead(Quantity input) {
    long best = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5 && best > MILLISECOND / 10; attempt++) {
      long start = System.nanoTime();
      read(input);
      best = Math.min(best, System.nanoTime() - start);
    }
    return best;
  }

  private static boolean isAnAmountOrAClearError(Quantity input, Object outcome) {
    if (outcome instanceof BigDecimal) {
      return true;
    }
    String message = ((IllegalArgumentException) outcome).getMessage();
    return message.startsWith(FIELD + ": \"" + shown(input) + "\" ")
        && RULES.stream().anyMatch(message::endsWith);
  }

  /** The input as an error quotes it: whole, or its start when it is long. */
  private static String shown(Quantity input) {
    String text = input.toString();
    return text.length() <= 64 ? text : text.substring(0, 16) + "…";
  }

  private static List<Quantity> inputs(Random random) {
    List<Function<Random, String>> kinds =
        List.of(
            r -> valid(r).text(),
            r -> pick(r, "", "+", "-") + valid(r).text(),
            ResourceQuantitiesFuzzTest::hugeExponent,
            ResourceQuantitiesFuzzTest::longDigits,
            ResourceQuantitiesFuzzTest::malformed,
            ResourceQuantitiesFuzzTest::suffixes);
    List<Quantity> inputs = new ArrayList<>(INPUTS + 2);
    inputs.add(quantity("1e500000001"));
    inputs.add(quantity("1E-999999999"));
    while (inputs.size() < INPUTS) {
      inputs.add(quantity(kinds.get(random.nextInt(kinds.size())).apply(random)));
    }
    return inputs;
  }

  /** The text as it arrives, whole: fabric8's constructor refuses some broken texts itself. */
  private static Quantity quantity(String text) {
    Quantity quantity = new Quantity();
    quantity.setAmount(text);
    return quantity;
  }

  /** What a cluster could hold: up to 20 digits and a suffix or an exponent of at most ±20. */
  private static Valid valid(Random random) {
    String number =
        random.nextInt(10) == 0
            ? "." + digits(random, 1 + random.nextInt(8))
            : digits(random, 1 + random.nextInt(12))
                + (random.nextBoolean() ? "." + digits(random, random.nextInt(8)) : "");
    BigDecimal value = new BigDecimal(number);
    return switch (random.nextInt(3)) {
      case 0 -> {
        int k = random.nextInt(BINARY.length);
        yield new Valid(number + BINARY[k], value.multiply(BigDecimal.valueOf(1024).pow(k + 1)));
      }
      case 1 -> {
        int k = random.nextInt(DECIMAL.length);
        yield new Valid(number + DECIMAL[k], value.multiply(tenTo(DECIMAL_POWERS[k])));
      }
      default -> {
        int exponent = random.nextInt(41) - 20;
        String written = pick(random, "e", "E") + (exponent >= 0 ? pick(random, "", "+") : "");
        yield new Valid(number + written + exponent, value.multiply(tenTo(exponent)));
      }
    };
  }

  private static String hugeExponent(Random random) {
    String exponent =
        switch (random.nextInt(4)) {
          case 0 -> pick(random, "500000001", "-999999999", "2147483648", "-9223372036854775809");
          case 1 -> Long.toString(random.nextLong());
          case 2 -> digits(random, 20 + random.nextInt(30));
          default -> Integer.toString(65 + random.nextInt(1_000_000));
        };
    return digits(random, 1 + random.nextInt(5)) + pick(random, "e", "E") + exponent;
  }

  /** Mostly just past the digit bound; one in twenty past the length bound, up to 50,000. */
  private static String longDigits(Random random) {
    int length = random.nextInt(20) == 0 ? 65 + random.nextInt(50_000) : 41 + random.nextInt(23);
    String digits = digits(random, length);
    return random.nextBoolean() ? digits : digits + pick(random, "Gi", "m", "e3", "");
  }

  private static String malformed(Random random) {
    String alphabet = "0123456789..++--eEinumkKMGTPExX ٣_";
    StringBuilder text = new StringBuilder();
    for (int i = 1 + random.nextInt(24); i > 0; i--) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  private static String suffixes(Random random) {
    StringBuilder text = new StringBuilder(digits(random, 1 + random.nextInt(4)));
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      text.append(
          pick(random, "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P",
              "E", "e3", "E-2", "e+", "i", "e"));
    }
    return text.toString();
  }

  private static String digits(Random random, int count) {
    StringBuilder digits = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      digits.append((char) ('0' + random.nextInt(10)));
    }
    return digits.toString();
  }

  private static String pick(Random random, String... choices) {
    return choices[random.nextInt(choices.length)];
  }

  private static BigDecimal tenTo(int power) {
    return power >= 0
        ? BigDecimal.TEN.pow(power)
        : BigDecimal.ONE.divide(BigDecimal.TEN.pow(-power));
  }

  /** A valid quantity and its amount, worked out apart from the reader. */
  private record Valid(String text, BigDecimal amount) {}
}
