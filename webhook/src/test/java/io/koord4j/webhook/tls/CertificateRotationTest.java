package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class CertificateRotationTest {
  static final RotationTiming TIMING =
      new RotationTiming(
          Duration.ofDays(30), Duration.ofDays(9), Duration.ofMinutes(1), Duration.ofSeconds(10));
  private static final List<String> SANS =
      List.of("koord4j-webhook.koord4j-system.svc", "127.0.0.1");
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final Predicate<X509Certificate> NO_CA = ca -> false;
  private static final Predicate<X509Certificate> EVERY_CA = ca -> true;

  private final CertificateRotation rotation = new CertificateRotation("test-ca", SANS, TIMING);
  private final TlsMaterial fresh = rotation.fresh(T0);

  @Test
  void renewalIsDueWhenLessThanTheMarginRemains() {
    X509Certificate serving = fresh.serving().certificate();
    Instant notAfter = serving.getNotAfter().toInstant();
    Duration margin = Duration.ofDays(3);

    assertThat(CertificateRotation.remainingBelow(serving, margin, notAfter.minus(margin).minusSeconds(1)))
        .isFalse();
    assertThat(CertificateRotation.remainingBelow(serving, margin, notAfter.minus(margin).plusSeconds(1)))
        .isTrue();
    assertThat(CertificateRotation.remainingBelow(serving, margin, notAfter.plusSeconds(1))).isTrue();
  }

  @Test
  void freshMaterialNeedsNoRotation() {
    assertThat(fresh.trustBundle()).containsExactly(fresh.signer().certificate());
    assertThat(rotation.rotate(fresh, T0, EVERY_CA)).isEmpty();
    assertThat(rotation.rotate(fresh, T0.plus(Duration.ofDays(5)), EVERY_CA)).isEmpty();
  }

  @Test
  void servingCertificateIsRenewedByTheSameCa() {
    TlsMaterial rotated = rotation.rotate(fresh, T0.plus(Duration.ofDays(7)), NO_CA).orElseThrow();

    assertThat(rotated.signer().certificate()).isEqualTo(fresh.signer().certificate());
    assertThat(rotated.trustBundle()).isEqualTo(fresh.trustBundle());
    assertThat(rotated.serving().certificate()).isNotEqualTo(fresh.serving().certificate());
    assertSignedBy(rotated.serving().certificate(), fresh.signer().certificate());
  }

  @Test
  void incomingCaJoinsTheBundleWhileTheOldCaKeepsSigning() {
    TlsMaterial rotated = rotation.rotate(fresh, T0.plus(Duration.ofDays(21)), NO_CA).orElseThrow();

    X509Certificate incoming = rotated.incoming().orElseThrow().certificate();
    assertThat(rotated.signer().certificate()).isEqualTo(fresh.signer().certificate());
    assertThat(rotated.trustBundle()).containsExactly(fresh.signer().certificate(), incoming);
    assertSignedBy(rotated.serving().certificate(), fresh.signer().certificate());
  }

  @Test
  void incomingCaSignsOnlyOnceTheApiServerTrustsIt() {
    Instant due = T0.plus(Duration.ofDays(21));
    TlsMaterial pending = rotation.rotate(fresh, due, NO_CA).orElseThrow();
    X509Certificate incoming = pending.incoming().orElseThrow().certificate();

    assertThat(rotation.rotate(pending, due.plusSeconds(5), NO_CA)).isEmpty();
    TlsMaterial promoted =
        rotation.rotate(pending, due.plusSeconds(10), incoming::equals).orElseThrow();

    assertThat(promoted.signer().certificate()).isEqualTo(incoming);
    assertThat(promoted.incoming()).isEmpty();
    assertThat(promoted.trustBundle()).containsExactly(incoming, fresh.signer().certificate());
    assertSignedBy(promoted.serving().certificate(), incoming);
  }

  @Test
  void servingCertificateIsRenewedByTheOldCaWhileTheIncomingOneIsUntrusted() {
    Instant due = T0.plus(Duration.ofDays(21));
    TlsMaterial pending = rotation.rotate(fresh, due, NO_CA).orElseThrow();

    TlsMaterial renewed =
        rotation.rotate(pending, due.plus(Duration.ofDays(7)), NO_CA).orElseThrow();

    assertThat(renewed.incoming()).isEqualTo(pending.incoming());
    assertThat(renewed.trustBundle()).isEqualTo(pending.trustBundle());
    assertThat(renewed.serving().certificate()).isNotEqualTo(pending.serving().certificate());
    assertSignedBy(renewed.serving().certificate(), fresh.signer().certificate());
  }

  @Test
  void expiredOldCaLeavesTheBundle() {
    Instant due = T0.plus(Duration.ofDays(21));
    TlsMaterial pending = rotation.rotate(fresh, due, NO_CA).orElseThrow();
    TlsMaterial promoted = rotation.rotate(pending, due, EVERY_CA).orElseThrow();

    TlsMaterial later = rotation.rotate(promoted, T0.plus(Duration.ofDays(31)), NO_CA).orElseThrow();

    assertThat(later.trustBundle()).containsExactly(promoted.signer().certificate());
  }

  @Test
  void expiredSignerIsReplacedByFreshMaterial() {
    TlsMaterial restarted = rotation.rotate(fresh, T0.plus(Duration.ofDays(40)), NO_CA).orElseThrow();

    assertThat(restarted.signer().certificate()).isNotEqualTo(fresh.signer().certificate());
    assertThat(restarted.trustBundle()).containsExactly(restarted.signer().certificate());
    assertSignedBy(restarted.serving().certificate(), restarted.signer().certificate());
  }

  @Test
  void changedSubjectAltNamesReissueTheServingCertificate() {
    CertificateRotation moved =
        new CertificateRotation("test-ca", List.of("other.koord4j-system.svc"), TIMING);

    TlsMaterial rotated = moved.rotate(fresh, T0, NO_CA).orElseThrow();

    assertThat(rotated.signer().certificate()).isEqualTo(fresh.signer().certificate());
    assertThat(moved.rotate(rotated, T0, NO_CA)).isEmpty();
  }

  @Test
  void materialSurvivesTheSecret() {
    TlsMaterial pending = rotation.rotate(fresh, T0.plus(Duration.ofDays(21)), NO_CA).orElseThrow();

    TlsMaterial read = TlsMaterial.fromSecretData(pending.toSecretData());

    assertThat(read.trustBundle()).isEqualTo(pending.trustBundle());
    assertThat(read.signer().certificate()).isEqualTo(pending.signer().certificate());
    assertThat(read.incoming().orElseThrow().certificate())
        .isEqualTo(pending.incoming().orElseThrow().certificate());
    assertThat(read.serving().certificate()).isEqualTo(pending.serving().certificate());
    assertThat(read.serving().keyPair().getPrivate())
        .isEqualTo(pending.serving().keyPair().getPrivate());
  }

  private static void assertSignedBy(X509Certificate certificate, X509Certificate ca) {
    try {
      certificate.verify(ca.getPublicKey());
    } catch (GeneralSecurityException e) {
      throw new AssertionError(certificate.getSerialNumber() + " is not signed by " + ca, e);
    }
  }
}
