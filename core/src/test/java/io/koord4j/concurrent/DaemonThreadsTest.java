package io.koord4j.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonThreadsTest {
  @Test
  void threadsAreDaemonsWithTheGivenName() {
    Thread thread = DaemonThreads.named("reader").newThread(() -> {});

    assertThat(thread.isDaemon()).isTrue();
    assertThat(thread.getName()).isEqualTo("reader");
  }
}
