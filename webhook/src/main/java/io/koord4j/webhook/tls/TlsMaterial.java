package io.koord4j.webhook.tls;

import io.koord4j.webhook.tls.CertificateAuthority.IssuedCertificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the webhook's Secret holds: the signing CA, the serving certificate it issued, the trust
 * bundle for the API server, and during a CA change the incoming CA. The bundle starts with the
 * signing CA; it holds the incoming CA before that signs anything, and keeps the CA it replaced
 * until that expires, so that every certificate a replica may still serve stays trusted.
 *
 * <p>Secret keys: {@code ca.crt} (the bundle, PEM, signing CA first), {@code ca.key}, {@code
 * tls.crt}, {@code tls.key}, and during a CA change {@code next-ca.crt}, {@code next-ca.key}.
 */
public record TlsMaterial(
    CertificateAuthority signer,
    Optional<CertificateAuthority> incoming,
    List<X509Certificate> trustBundle,
    IssuedCertificate serving) {

  public static final String CA_CERT = "ca.crt";
  public static final String CA_KEY = "ca.key";
  public static final String TLS_CERT = "tls.crt";
  public static final String TLS_KEY = "tls.key";
  /** During a CA change the incoming CA's pair, under the CA's keys with this prefix. */
  private static final String NEXT = "next-";
  public static final String NEXT_CA_CERT = NEXT + CA_CERT;
  public static final String NEXT_CA_KEY = NEXT + CA_KEY;

  private static final Pattern PEM_CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", Pattern.DOTALL);

  public TlsMaterial {
    trustBundle = List.copyOf(trustBundle);
  }

  /** The {@code caBundle} of the webhook configurations. */
  public String trustBundlePem() {
    StringBuilder pem = new StringBuilder();
    trustBundle.forEach(certificate -> pem.append(Pem.write(certificate)));
    return pem.toString();
  }

  public Map<String, String> toSecretData() {
    Map<String, String> data = new HashMap<>();
    data.put(CA_CERT, trustBundlePem());
    data.put(CA_KEY, signer.privateKeyPem());
    data.put(TLS_CERT, serving.certificatePem());
    data.put(TLS_KEY, serving.privateKeyPem());
    incoming.ifPresent(
        ca -> {
          data.put(NEXT_CA_CERT, ca.certificatePem());
          data.put(NEXT_CA_KEY, ca.privateKeyPem());
        });
    return Map.copyOf(data);
  }

  /**
   * Reads the Secret's data.
   *
   * @throws IllegalArgumentException when a key is missing or holds no valid PEM
   */
  public static TlsMaterial fromSecretData(Map<String, String> data) {
    List<X509Certificate> bundle = new ArrayList<>();
    Matcher matcher = PEM_CERTIFICATE.matcher(required(data, CA_CERT));
    while (matcher.find()) {
      bundle.add(Pem.readCertificate(matcher.group()));
    }
    if (bundle.isEmpty()) {
      throw new IllegalArgumentException(CA_CERT + " holds no certificate");
    }
    CertificateAuthority signer =
        CertificateAuthority.fromPem(Pem.write(bundle.get(0)), required(data, CA_KEY));
    IssuedCertificate serving =
        new IssuedCertificate(
            Pem.readCertificate(required(data, TLS_CERT)),
            Pem.readKeyPair(required(data, TLS_KEY)));
    Optional<CertificateAuthority> incoming =
        data.containsKey(NEXT_CA_CERT)
            ? Optional.of(
                CertificateAuthority.fromPem(
                    required(data, NEXT_CA_CERT), required(data, NEXT_CA_KEY)))
            : Optional.empty();
    return new TlsMaterial(signer, incoming, bundle, serving);
  }

  private static String required(Map<String, String> data, String key) {
    String value = data.get(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("the Secret has no " + key);
    }
    return value;
  }
}
