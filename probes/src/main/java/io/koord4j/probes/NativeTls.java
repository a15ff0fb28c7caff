package io.koord4j.probes;

import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;

/**
 * The TLS engine of koord4j's vert.x clients and servers: BoringSSL (netty-tcnative) where its
 * native library loads, else the JDK's. The JDK's AES-GCM and handshake arithmetic run as plain
 * Java until the JIT has compiled them, so a fresh process spends its first seconds on TLS;
 * BoringSSL is fast from the first byte, and stays cheaper per record than the compiled Java.
 */
public final class NativeTls {
  private NativeTls() {}

  public static SSLEngineOptions engine() {
    return OpenSSLEngineOptions.isAvailable() ? new OpenSSLEngineOptions() : new JdkSSLEngineOptions();
  }
}
