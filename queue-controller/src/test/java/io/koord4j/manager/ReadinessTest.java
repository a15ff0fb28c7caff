package io.koord4j.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadinessTest {
  @TempDir Path dir;

  @Test
  void theFileExistsExactlyWhileTheReplicaIsReady() {
    Path file = dir.resolve("ready");
    Readiness readiness = new Readiness(Optional.of(file));
    assertThat(readiness.getAsBoolean()).isFalse();
    assertThat(file).doesNotExist();

    readiness.set(true);
    assertThat(readiness.getAsBoolean()).isTrue();
    assertThat(file).exists();

    readiness.set(false);
    assertThat(readiness.getAsBoolean()).isFalse();
    assertThat(file).doesNotExist();
  }
}
