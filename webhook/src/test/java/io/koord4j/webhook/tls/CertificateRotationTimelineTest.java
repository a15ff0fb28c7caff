package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import io.koord4j.webhook.tls.SharedCertificatesTest.FakeStore;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Several replicas share one Secret and rotate through a few CA lifetimes on a simulated clock. At
 * every instant each replica's certificate must be valid, signed by a valid CA, and that CA must
 * be in every caBundle the API server may still be using.
 */
class CertificateRotationTimelineTest {
  // Scaled down; what matters is how validities, refresh period and settle delay compare.
  private static final Duration REFRESH = Duration.ofSeconds(2);
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final RotationTiming TIMING =
      new RotationTiming(Duration.ofSeconds(90), Duration.ofSeconds(30), REFRESH, SETTLE);
  private static final Duration STEP = Duration.ofMillis(250);
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private final SimulatedClock clock = new SimulatedClock();
  private final ApiServer apiServer = new ApiServer();
  private final FakeStore secret = new FakeStore();

  @Test
  void everyReplicaAlwaysServesAValidCertificateThatTheApiServerTrusts() {
    List<Replica> replicas = new ArrayList<>();
    for (Duration offset : List.of(Duration.ZERO, Duration.ofMillis(750), Duration.ofMillis(1500))) {
      replicas.add(new Replica(offset));
    }
    Set<X509Certificate> signers = new HashSet<>();

    for (Instant end = T0.plus(TIMING.caValidity().multipliedBy(4)); clock.now.isBefore(end); ) {
      for (Replica replica : replicas) {
        replica.refreshIfDue();
      }
      if (clock.now.isAfter(apiServer.firstWrite().plus(SETTLE))) {
        for (Replica replica : replicas) {
          X509Certificate ca = assertServable(replica.served.certificate());
          signers.add(ca);
        }
      }
      clock.now = clock.now.plus(STEP);
    }

    assertThat(signers).as("CAs that signed a served certificate").hasSizeGreaterThanOrEqualTo(4);
    assertThat(replicas).allSatisfy(replica -> assertThat(replica.swaps).isGreaterThanOrEqualTo(10));
  }

  /** Checks the certificate at the current instant and returns the CA that signed it. */
  private X509Certificate assertServable(X509Certificate serving) {
    Instant now = clock.now;
    assertThat(validAt(serving, now)).as("serving certificate valid at %s", now).isTrue();
    X509Certificate ca =
        apiServer.everyCa().stream()
            .filter(candidate -> CertificateRotation.signedBy(serving, candidate))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no written bundle holds the signing CA"));
    assertThat(validAt(ca, now)).as("signing CA valid at %s", now).isTrue();
    for (List<X509Certificate> bundle : apiServer.bundlesInUse(now)) {
      assertThat(bundle).as("caBundle the API server may use at %s", now).contains(ca);
    }
    return ca;
  }

  private final class Replica {
    private final CertificateKeeper keeper;
    private Instant nextRefresh;
    private IssuedCertificate served;
    private int swaps;

    Replica(Duration offset) {
      keeper =
          new CertificateKeeper(
              new SharedCertificates(
                  secret, new CertificateRotation("sim-ca", List.of("127.0.0.1"), TIMING)),
              apiServer::write,
              SETTLE,
              clock);
      served = keeper.initial();
      nextRefresh = clock.now.plus(offset);
    }

    void refreshIfDue() {
      if (clock.now.isBefore(nextRefresh)) {
        return;
      }
      keeper
          .refresh()
          .ifPresent(
              next -> {
                served = next;
                swaps++;
              });
      nextRefresh = clock.now.plus(REFRESH);
    }
  }

  /** The caBundles written, and which of them the API server may use while a write settles. */
  private final class ApiServer {
    private record Write(Instant at, List<X509Certificate> bundle) {}

    private final List<Write> writes = new ArrayList<>();

    void write(String bundlePem) {
      writes.add(new Write(clock.now, parse(bundlePem)));
    }

    Instant firstWrite() {
      return writes.isEmpty() ? Instant.MAX.minus(SETTLE) : writes.get(0).at();
    }

    /** The last bundle written a settle delay ago or earlier, and every later one. */
    List<List<X509Certificate>> bundlesInUse(Instant now) {
      Instant settled = now.minus(SETTLE);
      int oldest = 0;
      for (int i = 0; i < writes.size(); i++) {
        if (!writes.get(i).at().isAfter(settled)) {
          oldest = i;
        }
      }
      return writes.subList(oldest, writes.size()).stream()
          .filter(write -> !write.at().isAfter(now))
          .map(Write::bundle)
          .toList();
    }

    Set<X509Certificate> everyCa() {
      Set<X509Certificate> all = new HashSet<>();
      writes.forEach(write -> all.addAll(write.bundle()));
      return all;
    }

    private List<X509Certificate> parse(String pem) {
      try {
        return CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
            .stream()
            .map(X509Certificate.class::cast)
            .toList();
      } catch (GeneralSecurityException e) {
        throw new AssertionError("unreadable caBundle", e);
      }
    }
  }

  private static final class SimulatedClock extends Clock {
    private Instant now = T0;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  private static boolean validAt(X509Certificate certificate, Instant now) {
    return !now.isBefore(certificate.getNotBefore().toInstant())
        && !now.isAfter(certificate.getNotAfter().toInstant());
  }
}
