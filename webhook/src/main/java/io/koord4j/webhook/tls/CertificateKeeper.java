package io.koord4j.webhook.tls;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One replica's part in certificate rotation. Each refresh reads the shared Secret (rotating it
 * when due), writes a changed trust bundle to the webhook configurations, and moves to the
 * Secret's serving certificate only once the API server trusts its CA. Until then the replica
 * keeps serving the previous certificate, which the rotation plan keeps valid for that long.
 */
public final class CertificateKeeper {
  private final SharedCertificates certificates;
  private final Consumer<String> bundleWriter;
  private final BundleTrust trust;
  private final Clock clock;
  private String writtenBundle;
  private IssuedCertificate served;

  /**
   * @param bundleWriter writes a caBundle (PEM) to the webhook configurations; returns once the
   *     API server has stored it
   * @param settleDelay how long the API server may take to use a stored caBundle
   */
  public CertificateKeeper(
      SharedCertificates certificates,
      Consumer<String> bundleWriter,
      Duration settleDelay,
      Clock clock) {
    this.certificates = certificates;
    this.bundleWriter = bundleWriter;
    this.trust = new BundleTrust(settleDelay);
    this.clock = clock;
  }

  /** The certificate to start serving with: the Secret's, whatever the API server trusts yet. */
  public IssuedCertificate initial() {
    served = certificates.current(clock.instant(), ca -> false).serving();
    return served;
  }

  /** Brings the Secret and the caBundle up to date; returns the new certificate to serve, if any. */
  public Optional<IssuedCertificate> refresh() {
    TlsMaterial material =
        certificates.current(clock.instant(), ca -> trust.trusts(ca, clock.instant()));
    String bundle = material.trustBundlePem();
    if (!bundle.equals(writtenBundle)) {
      bundleWriter.accept(bundle);
      writtenBundle = bundle;
      trust.written(material.trustBundle(), clock.instant());
    }
    IssuedCertificate latest = material.serving();
    if (latest.certificate().equals(served.certificate())
        || !trust.trusts(material.signer().certificate(), clock.instant())) {
      return Optional.empty();
    }
    served = latest;
    return Optional.of(latest);
  }
}
