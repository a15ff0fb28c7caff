package io.koord4j.scheduler.extender;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/** The extender's TLS: its own key store, and clients must present a certificate of the CA. */
final class ExtenderTls {
  private ExtenderTls() {}

  static HttpsConfigurator requiringClientCertificates(ExtenderSettings settings)
      throws IOException {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers(settings), trustManagers(settings), null);
      return new HttpsConfigurator(context) {
        @Override
        public void configure(HttpsParameters params) {
          SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
          parameters.setNeedClientAuth(true);
          params.setSSLParameters(parameters);
        }
      };
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up the extender's TLS: " + e.getMessage(), e);
    }
  }

  private static javax.net.ssl.KeyManager[] keyManagers(ExtenderSettings settings)
      throws IOException, GeneralSecurityException {
    char[] password =
        settings.keyStorePassword() == null ? new char[0] : settings.keyStorePassword().toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(settings.keyStore())) {
      store.load(in, password);
    }
    KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, password);
    return factory.getKeyManagers();
  }

  private static javax.net.ssl.TrustManager[] trustManagers(ExtenderSettings settings)
      throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    try (InputStream in = Files.newInputStream(settings.clientCa())) {
      int i = 0;
      for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trusted.setCertificateEntry("client-ca-" + i++, certificate);
      }
    }
    if (trusted.size() == 0) {
      throw new IOException(settings.clientCa() + " holds no PEM certificate");
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trusted);
    return factory.getTrustManagers();
  }
}
