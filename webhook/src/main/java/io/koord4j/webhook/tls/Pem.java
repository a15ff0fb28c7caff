package io.koord4j.webhook.tls;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
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
    return read(
        pem, X509CertificateHolder.class, "certificate", "certificate",
        holder -> new JcaX509CertificateConverter().getCertificate(holder));
  }

  /** Reads an RSA private key in PKCS#1 ("RSA PRIVATE KEY") form, as {@link #write} produces it. */
  public static KeyPair readKeyPair(String pem) {
    return read(
        pem, PEMKeyPair.class, "RSA private key", "private key",
        keyPair -> new JcaPEMKeyConverter().getKeyPair(keyPair));
  }

  /** The object the PEM text holds, which must be a {@code type}, converted to its JCA form. */
  private static <P, T> T read(
      String pem, Class<P> type, String expected, String what, Converter<P, T> converter) {
    Object parsed = parse(pem);
    if (!type.isInstance(parsed)) {
      throw new IllegalArgumentException("PEM text holds no " + expected);
    }
    try {
      return converter.convert(type.cast(parsed));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("invalid " + what + ": " + e.getMessage(), e);
    }
  }

  private interface Converter<P, T> {
    T convert(P parsed) throws GeneralSecurityException, IOException;
  }

  private static Object parse(String pem) {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      return parser.readObject();
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid PEM text: " + e.getMessage(), e);
    }
  }
}
