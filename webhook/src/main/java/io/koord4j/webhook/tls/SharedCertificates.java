package io.koord4j.webhook.tls;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Makes all replicas serve the same certificates: the first replica to find no Secret creates it,
 * and whoever finds it due for rotation replaces it; a replica that loses a race reads and uses
 * the winner's data instead of its own.
 */
public final class SharedCertificates {
  /** Races lost in a row before giving up; each loss means another replica made progress. */
  private static final int ATTEMPTS = 5;

  private final SecretStore store;
  private final CertificateRotation rotation;

  public SharedCertificates(SecretStore store, CertificateRotation rotation) {
    this.store = store;
    this.rotation = rotation;
  }

  /**
   * The material to serve at {@code now}, created or rotated in the Secret when needed.
   *
   * @param trustedByApiServer whether the API server already trusts a CA
   */
  public TlsMaterial current(Instant now, Predicate<X509Certificate> trustedByApiServer) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<SecretStore.Stored> stored = store.read();
      if (stored.isEmpty()) {
        TlsMaterial fresh = rotation.fresh(now);
        if (store.createIfAbsent(fresh.toSecretData())) {
          return fresh;
        }
        continue;
      }
      Optional<TlsMaterial> replacement =
          replacementFor(stored.get(), now, trustedByApiServer);
      if (replacement.isEmpty()) {
        return TlsMaterial.fromSecretData(stored.get().data());
      }
      if (store.replace(replacement.get().toSecretData(), stored.get().resourceVersion())) {
        return replacement.get();
      }
    }
    throw new IllegalStateException(
        "the certificate Secret kept changing; gave up after " + ATTEMPTS + " attempts");
  }

  /** A Secret that cannot be read (edited by hand, truncated) is replaced by fresh material. */
  private Optional<TlsMaterial> replacementFor(
      SecretStore.Stored stored, Instant now, Predicate<X509Certificate> trustedByApiServer) {
    TlsMaterial material;
    try {
      material = TlsMaterial.fromSecretData(stored.data());
    } catch (IllegalArgumentException e) {
      return Optional.of(rotation.fresh(now));
    }
    return rotation.rotate(material, now, trustedByApiServer);
  }
}
