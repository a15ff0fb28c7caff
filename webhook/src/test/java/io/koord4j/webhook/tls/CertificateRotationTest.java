package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertificateRotationTest {
  private static final List<String> SANS =
      List.of("koord4j-webhook.koord4j-system.svc", "127.0.0.1");
  private static final Duration CA = Duration.ofDays(30);
  private static final Duration SERVING = Duration.ofDays(9);
  private final CertificateRotation rotation = new CertificateRotation("test-ca", SANS, CA, SERVING);
  private final TlsMaterial fresh = rotation.fresh();
  private final Instant issued = Instant.now();

  @Test
  void renewalIsDueWhenLessThanAThirdOfTheValidityRemains() {
    var serving = fresh.serving().certificate();
    Instant notAfter = serving.getNotAfter().toInstant();

    assertThat(CertificateRotation.renewalDue(serving, SERVING, notAfter.minus(Duration.ofDays(3)).minusSeconds(1))).isFalse();
    assertThat(CertificateRotation.renewalDue(serving, SERVING, notAfter.minus(Duration.ofDays(3)).plusSeconds(1))).isTrue();
    assertThat(CertificateRotation.renewalDue(serving, SERVING, notAfter.plusSeconds(1))).isTrue();
  }

  @Test
  void freshMaterialNeedsNoRotation() {
    assertThat(fresh.trustBundle()).containsExactly(fresh.signer().certificate());
    assertThat(rotation.rotate(fresh, issued)).isEmpty();
    assertThat(rotation.rotate(fresh, issued.plus(Duration.ofDays(5)))).isEmpty();
  }

  @Test
  void servingCertificateIsRenewedByTheSameCa() {
    Optional<TlsMaterial> rotated = rotation.rotate(fresh, issued.plus(Duration.ofDays(7)));

    assertThat(rotated).isPresent();
    assertThat(rotated.get().signer().certificate()).isEqualTo(fresh.signer().certificate());
    assertThat(rotated.get().trustBundle()).isEqualTo(fresh.trustBundle());
    assertThat(rotated.get().serving().certificate()).isNotEqualTo(fresh.serving().certificate());
    assertThat(rotated.get().serving().certificate().getIssuerX500Principal())
        .isEqualTo(fresh.signer().certificate().getSubjectX500Principal());
  }

  @Test
  void renewedCaIsBundledWithTheOldOneAndIssuesTheServingCertificate() throws Exception {
    TlsMaterial rotated = rotation.rotate(fresh, issued.plus(Duration.ofDays(21))).orElseThrow();

    assertThat(rotated.trustBundle())
        .containsExactly(rotated.signer().certificate(), fresh.signer().certificate());
    rotated.serving().certificate().verify(rotated.signer().certificate().getPublicKey());
  }

  @Test
  void expiredOldCaLeavesTheBundle() {
    TlsMaterial rotated = rotation.rotate(fresh, issued.plus(Duration.ofDays(31))).orElseThrow();

    assertThat(rotated.trustBundle()).containsExactly(rotated.signer().certificate());
  }

  @Test
  void changedSubjectAltNamesReissueTheServingCertificate() {
    CertificateRotation moved =
        new CertificateRotation("test-ca", List.of("other.koord4j-system.svc"), CA, SERVING);

    TlsMaterial rotated = moved.rotate(fresh, issued).orElseThrow();

    assertThat(rotated.signer().certificate()).isEqualTo(fresh.signer().certificate());
    assertThat(moved.rotate(rotated, issued)).isEmpty();
  }

  @Test
  void materialSurvivesTheSecret() {
    TlsMaterial rotated = rotation.rotate(fresh, issued.plus(Duration.ofDays(21))).orElseThrow();

    TlsMaterial read = TlsMaterial.fromSecretData(rotated.toSecretData());

    assertThat(read.trustBundle()).isEqualTo(rotated.trustBundle());
    assertThat(read.signer().certificate()).isEqualTo(rotated.signer().certificate());
    assertThat(read.serving().certificate()).isEqualTo(rotated.serving().certificate());
    assertThat(read.serving().keyPair().getPrivate()).isEqualTo(rotated.serving().keyPair().getPrivate());
  }
}
