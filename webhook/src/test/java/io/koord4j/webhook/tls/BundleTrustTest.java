package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BundleTrustTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final X509Certificate OLD =
      CertificateAuthority.create("old", T0, Duration.ofDays(1)).certificate();
  private static final X509Certificate NEW =
      CertificateAuthority.create("new", T0, Duration.ofDays(1)).certificate();

  private final BundleTrust trust = new BundleTrust(Duration.ofSeconds(10));

  @Test
  void caIsTrustedASettleDelayAfterItWasFirstWritten() {
    trust.written(List.of(OLD), T0);

    assertThat(trust.trusts(OLD, T0.plusSeconds(9))).isFalse();
    assertThat(trust.trusts(OLD, T0.plusSeconds(10))).isTrue();
    assertThat(trust.trusts(NEW, T0.plusSeconds(10))).isFalse();
  }

  @Test
  void rewritingABundleKeepsTheTrustOfCasItStillHolds() {
    trust.written(List.of(OLD), T0);
    trust.written(List.of(NEW, OLD), T0.plusSeconds(20));

    assertThat(trust.trusts(OLD, T0.plusSeconds(20))).isTrue();
    assertThat(trust.trusts(NEW, T0.plusSeconds(29))).isFalse();
    assertThat(trust.trusts(NEW, T0.plusSeconds(30))).isTrue();
  }

  @Test
  void caLeftOutOfABundleIsTrustedAgainOnlyASettleDelayAfterItReturns() {
    trust.written(List.of(OLD), T0);
    trust.written(List.of(NEW), T0.plusSeconds(20));
    trust.written(List.of(NEW, OLD), T0.plusSeconds(21));

    assertThat(trust.trusts(OLD, T0.plusSeconds(30))).isFalse();
    assertThat(trust.trusts(OLD, T0.plusSeconds(31))).isTrue();
  }
}
