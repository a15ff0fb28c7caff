package io.koord4j.webhook.tls;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Serves one certificate and key that can be replaced at any time without restarting the server.
 * A swap affects only handshakes that start afterwards; established connections keep the session
 * they negotiated.
 *
 * <p>A handshake picks an alias first and reads the chain and the key later, so the alias names
 * one pair by its serial number, and the pair served before the last swap is still found by its
 * alias: a handshake that straddles a swap completes with the pair it chose.
 */
public final class ReloadableKeyManager extends X509ExtendedKeyManager {
  private record Served(IssuedCertificate current, IssuedCertificate previous) {}

  private final AtomicReference<Served> served;

  public ReloadableKeyManager(IssuedCertificate initial) {
    served = new AtomicReference<>(new Served(initial, initial));
  }

  public void swap(IssuedCertificate next) {
    served.updateAndGet(now -> new Served(next, now.current()));
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyType);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return aliasFor(keyType);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    String alias = aliasFor(keyType);
    return alias == null ? null : new String[] {alias};
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    IssuedCertificate pair = pairFor(alias);
    return pair == null ? null : new X509Certificate[] {pair.certificate()};
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    IssuedCertificate pair = pairFor(alias);
    return pair == null ? null : pair.keyPair().getPrivate();
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  private String aliasFor(String keyType) {
    IssuedCertificate pair = served.get().current();
    return keyType.equals(pair.keyPair().getPrivate().getAlgorithm()) ? alias(pair) : null;
  }

  private IssuedCertificate pairFor(String alias) {
    Served now = served.get();
    if (alias(now.current()).equals(alias)) {
      return now.current();
    }
    return alias(now.previous()).equals(alias) ? now.previous() : null;
  }

  private static String alias(IssuedCertificate pair) {
    return "serving-" + pair.certificate().getSerialNumber().toString(16);
  }
}
