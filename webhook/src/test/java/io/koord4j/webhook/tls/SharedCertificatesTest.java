package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class SharedCertificatesTest {
  private static final RotationTiming TIMING = CertificateRotationTest.TIMING;
  private final CertificateRotation rotation =
      new CertificateRotation("test-ca", List.of("127.0.0.1"), TIMING);

  private static final Predicate<X509Certificate> NO_CA = ca -> false;

  /** An in-memory Secret with the API server's conditional writes. */
  static class FakeStore implements SecretStore {
    Map<String, String> data;
    long version;
    /** Runs before the next write, to let "another replica" win the race. */
    Runnable beforeNextWrite = () -> {};
    int writes;

    @Override
    public synchronized Optional<Stored> read() {
      return data == null ? Optional.empty() : Optional.of(new Stored(data, String.valueOf(version)));
    }

    @Override
    public synchronized boolean createIfAbsent(Map<String, String> newData) {
      raceOnce();
      if (data != null) {
        return false;
      }
      return write(newData);
    }

    @Override
    public synchronized boolean replace(Map<String, String> newData, String resourceVersion) {
      raceOnce();
      if (data == null || !String.valueOf(version).equals(resourceVersion)) {
        return false;
      }
      return write(newData);
    }

    private void raceOnce() {
      Runnable race = beforeNextWrite;
      beforeNextWrite = () -> {};
      race.run();
    }

    private boolean write(Map<String, String> newData) {
      data = new HashMap<>(newData);
      version++;
      writes++;
      return true;
    }
  }

  @Test
  void firstReplicaCreatesTheSecretAndOthersReadIt() {
    FakeStore store = new FakeStore();
    SharedCertificates first = new SharedCertificates(store, rotation);
    SharedCertificates second = new SharedCertificates(store, rotation);

    TlsMaterial created = first.current(Instant.now(), NO_CA);
    TlsMaterial read = second.current(Instant.now(), NO_CA);

    assertThat(store.writes).isEqualTo(1);
    assertThat(read.serving().certificate()).isEqualTo(created.serving().certificate());
  }

  @Test
  void replicaThatLosesTheCreateRaceUsesTheWinnersMaterial() {
    FakeStore store = new FakeStore();
    TlsMaterial winner = rotation.fresh(Instant.now());
    store.beforeNextWrite = () -> store.write(winner.toSecretData());

    TlsMaterial used = new SharedCertificates(store, rotation).current(Instant.now(), NO_CA);

    assertThat(used.serving().certificate()).isEqualTo(winner.serving().certificate());
    assertThat(store.writes).isEqualTo(1);
  }

  @Test
  void replicaThatLosesTheRotationRaceUsesTheWinnersRotation() {
    FakeStore store = new FakeStore();
    // Issued for other names, so both replicas find it due now.
    TlsMaterial old = new CertificateRotation("test-ca", List.of("old.example"), TIMING)
        .fresh(Instant.now());
    store.write(old.toSecretData());
    TlsMaterial winner = rotation.rotate(old, Instant.now(), NO_CA).orElseThrow();
    store.beforeNextWrite = () -> store.write(winner.toSecretData());

    TlsMaterial used = new SharedCertificates(store, rotation).current(Instant.now(), NO_CA);

    assertThat(used.serving().certificate()).isEqualTo(winner.serving().certificate());
    assertThat(store.writes).isEqualTo(2);
  }

  @Test
  void dueMaterialIsRotatedInTheSecret() {
    FakeStore store = new FakeStore();
    SharedCertificates certificates = new SharedCertificates(store, rotation);
    TlsMaterial old = certificates.current(Instant.now(), NO_CA);

    TlsMaterial rotated = certificates.current(Instant.now().plus(Duration.ofDays(7)), NO_CA);

    assertThat(rotated.serving().certificate()).isNotEqualTo(old.serving().certificate());
    assertThat(TlsMaterial.fromSecretData(store.data).serving().certificate())
        .isEqualTo(rotated.serving().certificate());
  }

  @Test
  void unreadableSecretIsReplaced() {
    FakeStore store = new FakeStore();
    store.write(Map.of(TlsMaterial.CA_CERT, "not a certificate"));

    TlsMaterial used = new SharedCertificates(store, rotation).current(Instant.now(), NO_CA);

    assertThat(TlsMaterial.fromSecretData(store.data).serving().certificate())
        .isEqualTo(used.serving().certificate());
  }
}
