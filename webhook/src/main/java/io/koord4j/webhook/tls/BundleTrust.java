package io.koord4j.webhook.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which CAs the API server trusts, as far as one replica can tell: those that were in every
 * caBundle it wrote over the last settle delay, the time the API server may take to use a write.
 */
final class BundleTrust {
  private final Duration settleDelay;
  private Map<X509Certificate, Instant> inBundleSince = Map.of();

  BundleTrust(Duration settleDelay) {
    this.settleDelay = settleDelay;
  }

  /** Records a bundle written to the webhook configurations; it replaces the previous one. */
  void written(List<X509Certificate> bundle, Instant writtenAt) {
    Map<X509Certificate, Instant> since = new HashMap<>();
    bundle.forEach(ca -> since.put(ca, inBundleSince.getOrDefault(ca, writtenAt)));
    inBundleSince = since;
  }

  boolean trusts(X509Certificate ca, Instant now) {
    Instant since = inBundleSince.get(ca);
    return since != null && !since.plus(settleDelay).isAfter(now);
  }
}
