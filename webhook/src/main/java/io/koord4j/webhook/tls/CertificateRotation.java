package io.koord4j.webhook.tls;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * When to renew the webhook's certificates, and what replaces them. A certificate is renewed when
 * less than a third of its configured validity remains, which leaves two thirds of a lifetime for
 * every replica to pick up the new one.
 *
 * <p>Renewing the serving certificate keeps the CA, so the API server's trust does not change.
 * Renewing the CA issues a new serving certificate too; the new trust bundle holds the new CA and
 * the one it replaces, so certificates of either are trusted during the change.
 */
public final class CertificateRotation {
  private final String caName;
  private final List<String> subjectAltNames;
  private final Duration caValidity;
  private final Duration servingValidity;

  public CertificateRotation(
      String caName, List<String> subjectAltNames, Duration caValidity, Duration servingValidity) {
    this.caName = caName;
    this.subjectAltNames = List.copyOf(subjectAltNames);
    this.caValidity = caValidity;
    this.servingValidity = servingValidity;
  }

  /** A new CA and a serving certificate, for a Secret that does not exist yet. */
  public TlsMaterial fresh() {
    CertificateAuthority ca = CertificateAuthority.create(caName, caValidity);
    return new TlsMaterial(ca, List.of(ca.certificate()), issue(ca));
  }

  /** What should replace {@code current} at {@code now}, or empty while it is good. */
  public Optional<TlsMaterial> rotate(TlsMaterial current, Instant now) {
    if (renewalDue(current.signer().certificate(), caValidity, now)) {
      CertificateAuthority next = CertificateAuthority.create(caName, caValidity);
      List<X509Certificate> bundle =
          Stream.concat(Stream.of(next.certificate()), unexpired(current.signer().certificate(), now))
              .toList();
      return Optional.of(new TlsMaterial(next, bundle, issue(next)));
    }
    X509Certificate serving = current.serving().certificate();
    boolean stale =
        renewalDue(serving, servingValidity, now)
            || !serving.getIssuerX500Principal()
                .equals(current.signer().certificate().getSubjectX500Principal())
            || !subjectAltNames(serving).equals(new HashSet<>(subjectAltNames));
    if (!stale) {
      return Optional.empty();
    }
    List<X509Certificate> bundle =
        current.trustBundle().stream().flatMap(certificate -> unexpired(certificate, now)).toList();
    return Optional.of(new TlsMaterial(current.signer(), bundle, issue(current.signer())));
  }

  /** Whether less than a third of {@code validity} remains before the certificate expires. */
  static boolean renewalDue(X509Certificate certificate, Duration validity, Instant now) {
    Duration remaining = Duration.between(now, certificate.getNotAfter().toInstant());
    return remaining.compareTo(validity.dividedBy(3)) < 0;
  }

  private IssuedCertificate issue(CertificateAuthority ca) {
    return ca.issueServing(subjectAltNames, servingValidity);
  }

  private static Stream<X509Certificate> unexpired(X509Certificate certificate, Instant now) {
    return certificate.getNotAfter().toInstant().isAfter(now)
        ? Stream.of(certificate)
        : Stream.empty();
  }

  private static Set<String> subjectAltNames(X509Certificate certificate) {
    try {
      Collection<List<?>> names = certificate.getSubjectAlternativeNames();
      Set<String> values = new HashSet<>();
      if (names != null) {
        names.forEach(name -> values.add(String.valueOf(name.get(1))));
      }
      return values;
    } catch (CertificateParsingException e) {
      return Set.of();
    }
  }
}
