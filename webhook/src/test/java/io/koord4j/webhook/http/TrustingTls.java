package io.koord4j.webhook.http;

import io.koord4j.webhook.tls.CertificateAuthority;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A client TLS context that trusts the test's certificate authority only. */
final class TrustingTls {
  private TrustingTls() {}

  static SSLContext of(CertificateAuthority ca) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca.certificate());
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trustManagers.getTrustManagers(), null);
    return tls;
  }
}
