package io.koord4j.webhook.tls;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * When to renew the webhook's certificates, and what replaces them: the Secret's next state.
 *
 * <p>Renewing the serving certificate keeps the CA, so the API server's trust does not change.
 * Renewing the CA takes two steps, because the API server must trust a CA before any certificate
 * it signs is served: first the incoming CA joins the trust bundle while the old CA keeps signing
 * (and renewing) the serving certificate; once the API server trusts the incoming CA it becomes
 * the signer and issues the serving certificate. The old CA stays in the bundle until it expires,
 * so that replicas still serving its certificate stay trusted while they reload. {@link
 * RotationTiming} makes sure the margins cover these steps.
 */
public final class CertificateRotation {
  private final String caName;
  private final List<String> subjectAltNames;
  private final RotationTiming timing;

  public CertificateRotation(String caName, List<String> subjectAltNames, RotationTiming timing) {
    this.caName = caName;
    this.subjectAltNames = List.copyOf(subjectAltNames);
    this.timing = timing;
  }

  /** A new CA and a serving certificate, for a Secret that does not exist yet. */
  public TlsMaterial fresh(Instant now) {
    CertificateAuthority ca = CertificateAuthority.create(caName, now, timing.caValidity());
    return new TlsMaterial(ca, Optional.empty(), List.of(ca.certificate()), issue(ca, now));
  }

  /**
   * What should replace {@code current} at {@code now}, or empty while it is good.
   *
   * @param trustedByApiServer whether the API server already trusts a CA (it has been in the
   *     caBundle for a settle delay)
   */
  public Optional<TlsMaterial> rotate(
      TlsMaterial current, Instant now, Predicate<X509Certificate> trustedByApiServer) {
    CertificateAuthority signer = current.signer();
    if (!signer.certificate().getNotAfter().toInstant().isAfter(now)) {
      // Down for longer than the renewal margin: nothing in the Secret is usable any more.
      return Optional.of(fresh(now));
    }
    Optional<CertificateAuthority> incoming = current.incoming();
    if (incoming.isPresent() && trustedByApiServer.test(incoming.get().certificate())) {
      CertificateAuthority promoted = incoming.get();
      return Optional.of(
          new TlsMaterial(
              promoted,
              Optional.empty(),
              bundle(Stream.of(promoted.certificate()), current.trustBundle().stream(), now),
              issue(promoted, now)));
    }
    boolean servingStale = servingStale(current, now);
    if (incoming.isEmpty() && remainingBelow(signer.certificate(), timing.caRenewBefore(), now)) {
      CertificateAuthority next = CertificateAuthority.create(caName, now, timing.caValidity());
      return Optional.of(
          new TlsMaterial(
              signer,
              Optional.of(next),
              bundle(
                  Stream.of(signer.certificate(), next.certificate()),
                  current.trustBundle().stream(),
                  now),
              servingStale ? issue(signer, now) : current.serving()));
    }
    if (!servingStale) {
      return Optional.empty();
    }
    return Optional.of(
        new TlsMaterial(
            signer,
            incoming,
            bundle(Stream.empty(), current.trustBundle().stream(), now),
            issue(signer, now)));
  }

  /** Whether less than {@code margin} remains before the certificate expires. */
  static boolean remainingBelow(X509Certificate certificate, Duration margin, Instant now) {
    Duration remaining = Duration.between(now, certificate.getNotAfter().toInstant());
    return remaining.compareTo(margin) < 0;
  }

  private boolean servingStale(TlsMaterial current, Instant now) {
    X509Certificate serving = current.serving().certificate();
    return remainingBelow(serving, timing.servingRenewBefore(), now)
        || !signedBy(serving, current.signer().certificate())
        || !subjectAltNames(serving).equals(new HashSet<>(subjectAltNames));
  }

  /** By signature: every CA this webhook creates has the same name. */
  static boolean signedBy(X509Certificate certificate, X509Certificate ca) {
    try {
      certificate.verify(ca.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private IssuedCertificate issue(CertificateAuthority ca, Instant now) {
    return ca.issueServing(subjectAltNames, now, timing.servingValidity());
  }

  /** {@code first} in order, then the rest of the unexpired {@code kept}, without repeats. */
  private static List<X509Certificate> bundle(
      Stream<X509Certificate> first, Stream<X509Certificate> kept, Instant now) {
    return Stream.concat(first, kept.filter(ca -> ca.getNotAfter().toInstant().isAfter(now)))
        .distinct()
        .toList();
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
