package io.koord4j.manager.dashboard;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The names the dashboard answers to in a request's Host header: loopback's, and those configured
 * (the chart gives the manager's Service names). A browser sends a page's requests with the name
 * it resolved as Host, so a site whose DNS name an attacker points at this address (DNS
 * rebinding) is refused here instead of reading the whole cluster from the visitor's browser.
 */
public final class HostAllowList {
  /** Names only this machine reaches this port by, which no other site can rebind. */
  static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1");

  private final Set<String> names;

  private HostAllowList(Set<String> names) {
    this.names = names;
  }

  /**
   * Loopback's names and those listed, separated by commas (e.g. {@code
   * koord4j-manager.koord4j-system.svc}); a port or a final dot in a listed name is ignored.
   */
  public static HostAllowList of(String commaSeparated) {
    Stream<String> listed = Arrays.stream(commaSeparated.split(","))
        .map(HostAllowList::hostName)
        .flatMap(Optional::stream);
    return new HostAllowList(Stream.concat(LOOPBACK.stream(), listed).collect(Collectors.toUnmodifiableSet()));
  }

  /** Whether a request with this Host header, if any, may be answered. */
  public boolean allows(Optional<String> hostHeader) {
    return hostHeader.flatMap(HostAllowList::hostName).filter(names::contains).isPresent();
  }

  /**
   * The name in a Host header: without its port or an IPv6 address's brackets, without a final
   * dot, in lower case; empty when there is none.
   */
  static Optional<String> hostName(String host) {
    String name = host.strip().toLowerCase(Locale.ROOT);
    if (name.startsWith("[")) {
      int end = name.indexOf(']');
      name = end < 0 ? "" : name.substring(1, end);
    } else if (name.indexOf(':') >= 0 && name.indexOf(':') == name.lastIndexOf(':')) {
      // One colon: a name and its port. More, without brackets: an IPv6 address alone.
      name = name.substring(0, name.indexOf(':'));
    }
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }
}
