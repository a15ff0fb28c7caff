package io.koord4j.webhook.tls;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.KeyPair;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/** PEM encoding of certificates and keys, as Kubernetes Secrets and caBundles carry them. */
public final class Pem {
  private Pem() {}

  public static String write(Object certificateOrKey) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificateOrKey);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode PEM", e);
    }
    return out.toString();
  }

  public static X509Certificate readCertificate(String pem) {
    Object parsed = parse(pem);
    if (!(parsed instanceof X509CertificateHolder holder)) {
      throw new IllegalArgumentException("PEM text holds no certificate");
    }
    try {
      return new JcaX509CertificateConverter().getCertificate(holder);
    } catch (CertificateException e) {
      throw new IllegalArgumentException("invalid certificate: " + e.getMessage(), e);
    }
  }

  /** Reads an RSA private key in PKCS#1 ("RSA PRIVATE KEY") form, as {@link #write} produces it. */
  public static KeyPair readKeyPair(String pem) {
    Object parsed = parse(pem);
    if (!(parsed instanceof PEMKeyPair keyPair)) {
      throw new IllegalArgumentException("PEM text holds no RSA private key");
    }
    try {
      return new JcaPEMKeyConverter().getKeyPair(keyPair);
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid private key: " + e.getMessage(), e);
    }
  }

  private static Object parse(String pem) {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      return parser.readObject();
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid PEM text: " + e.getMessage(), e);
    }
  }
}
