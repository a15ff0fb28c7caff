package io.koord4j.probes;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The address a server listens on, as a setting names it: one address of the host (such as the
 * pod's IP, or with hostNetwork the node's), or every address when the setting is unset.
 */
public final class ListenAddress {
  private ListenAddress() {}

  /** The address {@code value} names; empty (every address) when it is null or blank. */
  public static Optional<String> of(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(address -> !address.isEmpty());
  }

  /** {@code address} and {@code port} for a JDK server: the wildcard address when empty. */
  public static InetSocketAddress socket(Optional<String> address, int port) {
    return address.map(host -> new InetSocketAddress(host, port)).orElseGet(() -> new InetSocketAddress(port));
  }
}
