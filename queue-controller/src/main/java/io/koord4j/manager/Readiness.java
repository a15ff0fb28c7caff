package io.koord4j.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Whether this replica is ready: answered on /readyz and, when a file is given, shown by the file
 * existing exactly while the replica is ready (a check on the replica's own file system).
 */
final class Readiness implements BooleanSupplier {
  private final AtomicBoolean ready = new AtomicBoolean();
  private final Optional<Path> file;

  Readiness(Optional<Path> file) {
    this.file = file;
  }

  @Override
  public boolean getAsBoolean() {
    return ready.get();
  }

  void set(boolean value) {
    ready.set(value);
    file.ifPresent(path -> mark(path, value));
  }

  private static void mark(Path path, boolean ready) {
    try {
      if (ready) {
        Files.writeString(path, "ready\n");
      } else {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot " + (ready ? "write " : "delete ") + path, e);
    }
  }
}
