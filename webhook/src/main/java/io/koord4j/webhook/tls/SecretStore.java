package io.koord4j.webhook.tls;

import java.util.Map;
import java.util.Optional;

/**
 * The one Secret all webhook replicas share. Writes are conditional, so that when replicas race
 * exactly one write wins and the others read the winner's data.
 */
public interface SecretStore {

  /** The Secret's data (decoded) and the version it was read at. */
  record Stored(Map<String, String> data, String resourceVersion) {}

  Optional<Stored> read();

  /** Creates the Secret; false when it already exists (someone else created it first). */
  boolean createIfAbsent(Map<String, String> data);

  /** Replaces the data read at {@code resourceVersion}; false when it changed since. */
  boolean replace(Map<String, String> data, String resourceVersion);
}
