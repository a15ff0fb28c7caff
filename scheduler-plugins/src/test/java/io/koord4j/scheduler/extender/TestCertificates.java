package io.koord4j.scheduler.extender;

import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throwaway CA issuing the extender's server certificate and kube-scheduler's client one. */
final class TestCertificates {
  static final char[] PASSWORD = "changeit".toCharArray();
  private static final AtomicLong SERIAL = new AtomicLong(1);

  final KeyPair caKeys = keys();
  final X509Certificate ca = issue("ca", caKeys, caKeys, null, true);

  /** The CA's certificate as a PEM file. */
  Path caPem(Path dir) throws Exception {
    Path file = dir.resolve("ca.pem");
    Files.writeString(file, "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(ca.getEncoded())
        + "\n-----END CERTIFICATE-----\n");
    return file;
  }

  /** A PKCS#12 key store with a key and a certificate for 127.0.0.1 signed by the CA. */
  Path keyStore(Path dir, String name) throws Exception {
    KeyPair keys = keys();
    X509Certificate certificate = issue(name, keys, caKeys, ca, false);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(name, keys.getPrivate(), PASSWORD, new Certificate[] {certificate, ca});
    Path file = dir.resolve(name + ".p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD);
    }
    return file;
  }

  /** A client context trusting the CA, presenting the given key store's certificate if any. */
  SSLContext client(Path keyStore) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    KeyManagerFactory keyManagers = null;
    if (keyStore != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (var in = Files.newInputStream(keyStore)) {
        store.load(in, PASSWORD);
      }
      keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(store, PASSWORD);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }

  private static KeyPair keys() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static X509Certificate issue(
      String name, KeyPair subject, KeyPair issuerKeys, X509Certificate issuer, boolean isCa) {
    try {
      Instant now = Instant.now();
      var builder = new JcaX509v3CertificateBuilder(
          issuer == null ? new X500Name("CN=" + name) : new X500Name(issuer.getSubjectX500Principal().getName()),
          BigInteger.valueOf(SERIAL.getAndIncrement()),
          Date.from(now.minus(Duration.ofMinutes(1))),
          Date.from(now.plus(Duration.ofHours(1))),
          new X500Name("CN=" + name),
          subject.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
      if (!isCa) {
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
      }
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
