package io.koord4j.scheduler.extender;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Where the extender listens and whom it serves. Its {@code bind} binds pods, so plain HTTP is
 * served on a loopback address only (kube-scheduler on the same host); any other address needs
 * TLS with client certificates: kube-scheduler's extender {@code tlsConfig} presents a
 * certificate ({@code certFile}, {@code keyFile}) that the CA of {@code clientCa} signed.
 *
 * @param address the address to listen on
 * @param keyStore the extender's key and certificate chain (PKCS#12), or null for plain HTTP
 * @param keyStorePassword the key store's password
 * @param clientCa the PEM certificates a client's certificate must chain to, or null
 */
public record ExtenderSettings(
    String address, int port, Path keyStore, String keyStorePassword, Path clientCa) {

  public static final String LOOPBACK = "127.0.0.1";

  public ExtenderSettings {
    if ((keyStore == null) != (clientCa == null)) {
      throw new IllegalArgumentException(
          "--extender-tls-keystore and --extender-client-ca go together");
    }
    if (keyStore == null && !isLoopback(address)) {
      throw new IllegalArgumentException(
          "--extender-address " + address + " is not a loopback address: serving beyond this host"
              + " needs TLS with client certificates (--extender-tls-keystore and"
              + " --extender-client-ca)");
    }
  }

  /** Plain HTTP on {@value #LOOPBACK}. */
  public static ExtenderSettings onPort(int port) {
    return new ExtenderSettings(LOOPBACK, port, null, null, null);
  }

  public boolean tls() {
    return keyStore != null;
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--extender-address " + address + " is not an address", e);
    }
  }
}
