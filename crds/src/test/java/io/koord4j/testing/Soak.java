package io.koord4j.testing;

/**
 * Sizes of the long-running tests: the default build runs each at a size that still proves its
 * property, {@code -Psoak} at the size that stresses it.
 */
public final class Soak {
  private Soak() {}

  /** Whether this run is the soak run ({@code mvn verify -Psoak}). */
  public static boolean enabled() {
    return Boolean.getBoolean("koord4j.soak");
  }

  /** {@code regular} in the default build, {@code soak} under {@code -Psoak}. */
  public static int size(int regular, int soak) {
    return enabled() ? soak : regular;
  }
}
