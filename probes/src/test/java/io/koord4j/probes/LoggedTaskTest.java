package io.koord4j.probes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LoggedTaskTest {

  @Test
  void aFailedRoundDoesNotEndThePeriodicLoop() throws InterruptedException {
    AtomicInteger rounds = new AtomicInteger();
    CountDownLatch thirdRound = new CountDownLatch(3);
    Runnable failsFirst =
        () -> {
          thirdRound.countDown();
          if (rounds.incrementAndGet() == 1) {
            throw new IllegalStateException("first round fails");
          }
        };
    ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    try {
      loop.scheduleWithFixedDelay(
          LoggedTask.of(LoggerFactory.getLogger(LoggedTaskTest.class), "round failed", failsFirst),
          0,
          1,
          TimeUnit.MILLISECONDS);

      assertThat(thirdRound.await(1, TimeUnit.MINUTES)).isTrue();
    } finally {
      loop.shutdownNow();
    }
  }
}
