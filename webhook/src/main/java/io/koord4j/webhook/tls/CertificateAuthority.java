package io.koord4j.webhook.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed CA that issues the webhook's serving certificates. */
public final class CertificateAuthority {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KeyPair keyPair;
  private final X509Certificate certificate;

  private CertificateAuthority(KeyPair keyPair, X509Certificate certificate) {
    this.keyPair = keyPair;
    this.certificate = certificate;
  }

  /** A new CA whose certificate is valid for {@code validity} from now. */
  public static CertificateAuthority create(String commonName, Duration validity) {
    return create(commonName, Instant.now(), validity);
  }

  /** A new CA whose certificate is valid for {@code validity} from {@code issuedAt}. */
  public static CertificateAuthority create(
      String commonName, Instant issuedAt, Duration validity) {
    KeyPair keys = newKeyPair();
    X500Name subject = new X500Name("CN=" + commonName);
    try {
      X509Certificate cert =
          sign(
              builder(subject, subject, keys, issuedAt, validity, true, KeyUsage.keyCertSign | KeyUsage.cRLSign),
              keys);
      return new CertificateAuthority(keys, cert);
    } catch (IOException e) {
      throw new IllegalStateException("cannot build the CA certificate", e);
    }
  }

  /** Rebuilds a CA from PEM text (as kept in a Secret). */
  public static CertificateAuthority fromPem(String certificatePem, String privateKeyPem) {
    return new CertificateAuthority(
        Pem.readKeyPair(privateKeyPem), Pem.readCertificate(certificatePem));
  }

  /**
   * A serving certificate for the given DNS names and IP addresses, signed by this CA. Names that
   * parse as IP literals become IP SANs.
   */
  public IssuedCertificate issueServing(List<String> subjectAltNames, Duration validity) {
    return issueServing(subjectAltNames, Instant.now(), validity);
  }

  /** As {@link #issueServing(List, Duration)}, valid for {@code validity} from {@code issuedAt}. */
  public IssuedCertificate issueServing(
      List<String> subjectAltNames, Instant issuedAt, Duration validity) {
    KeyPair keys = newKeyPair();
    X500Name subject = new X500Name("CN=" + subjectAltNames.get(0));
    X500Name issuer = new X500Name(certificate.getSubjectX500Principal().getName());
    try {
      X509Certificate cert =
          sign(
              builder(
                      subject,
                      issuer,
                      keys,
                      issuedAt,
                      validity,
                      false,
                      KeyUsage.digitalSignature | KeyUsage.keyEncipherment)
                  .addExtension(
                      Extension.extendedKeyUsage,
                      false,
                      new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                  .addExtension(Extension.subjectAlternativeName, false, generalNames(subjectAltNames)),
              keyPair);
      return new IssuedCertificate(cert, keys);
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid subject alternative names " + subjectAltNames, e);
    }
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public String certificatePem() {
    return Pem.write(certificate);
  }

  public String privateKeyPem() {
    return Pem.write(keyPair.getPrivate());
  }

  private static GeneralNames generalNames(List<String> names) throws IOException {
    List<GeneralName> result = new ArrayList<>();
    for (String name : names) {
      boolean ip = name.matches("[0-9.]+|.*:.*");
      result.add(
          ip
              ? new GeneralName(GeneralName.iPAddress, InetAddress.getByName(name).getHostAddress())
              : new GeneralName(GeneralName.dNSName, name));
    }
    return new GeneralNames(result.toArray(GeneralName[]::new));
  }

  /** A certificate of a CA ({@code ca}) or a leaf, for the given key usages (critical, as both are). */
  private static X509v3CertificateBuilder builder(
      X500Name subject,
      X500Name issuer,
      KeyPair keys,
      Instant issuedAt,
      Duration validity,
      boolean ca,
      int keyUsage)
      throws IOException {
    // Backdated a little, so that a verifier whose clock is slightly behind accepts it at once.
    return new JcaX509v3CertificateBuilder(
            issuer,
            new BigInteger(64, RANDOM),
            Date.from(issuedAt.minus(Duration.ofMinutes(5))),
            Date.from(issuedAt.plus(validity)),
            subject,
            keys.getPublic())
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(ca))
        .addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
    try {
      ContentSigner contentSigner =
          new JcaContentSignerBuilder("SHA256withRSA").build(signer.getPrivate());
      return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
    } catch (OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign certificate", e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048, RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("RSA is not available", e);
    }
  }

  /** A certificate with its key pair. */
  public record IssuedCertificate(X509Certificate certificate, KeyPair keyPair) {
    public String certificatePem() {
      return Pem.write(certificate);
    }

    public String privateKeyPem() {
      return Pem.write(keyPair.getPrivate());
    }

    /** A TLS context that serves this certificate. */
    public SSLContext serverSslContext() {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = new char[0];
        store.setKeyEntry("serving", keyPair.getPrivate(), password, new Certificate[] {certificate});
        KeyManagerFactory keyManagers =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException("cannot build a TLS context", e);
      }
    }
  }
}
