package io.koord4j.quota;

/** Amounts in base units written the way Kubernetes quantities are: cores, binary sizes. */
public final class BaseUnits {
  private BaseUnits() {}

  /** E.g. 1500 milli-CPU as {@code 1500m}, 2000 as {@code 2}; 16 GiB of memory as {@code 16Gi}. */
  public static String format(String resource, long amount) {
    if (resource.equals("cpu")) {
      return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
    }
    if (resource.contains("memory") || resource.contains("storage")) {
      String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
      int k = 0;
      while (k < suffixes.length - 1 && amount != 0 && amount % 1024 == 0) {
        amount /= 1024;
        k++;
      }
      return amount + suffixes[k];
    }
    return Long.toString(amount);
  }
}
