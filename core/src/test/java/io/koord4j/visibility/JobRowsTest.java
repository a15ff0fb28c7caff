package io.koord4j.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobRowsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  @Test
  void waitingJobsComeFirstInQueueOrderWithTheirPositionAndReason() {
    QueueUnit running = Fixtures.withStatus(Fixtures.unit("done", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.RUNNING, null, "admitted");
    QueueUnit second = Fixtures.withStatus(Fixtures.unit("second", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.ENQUEUED, 2, "blocked");
    QueueUnit first = Fixtures.withStatus(Fixtures.unit("first", "nlp", "nlp", 5, "2026-01-01T00:30:00Z", 1, "1", 0),
        QueueUnitPhase.ENQUEUED, 1, "short of cpu");
    QueueUnit other = Fixtures.withStatus(Fixtures.unit("other", "cv", "cv", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.ENQUEUED, 1, "x");

    List<JobRows.JobRow> rows = JobRows.of(List.of(running, second, first, other), "nlp", NOW);

    assertThat(rows).extracting(JobRows.JobRow::name, JobRows.JobRow::position, JobRows.JobRow::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("first", 1, "short of cpu"),
            org.assertj.core.groups.Tuple.tuple("second", 2, "blocked"),
            org.assertj.core.groups.Tuple.tuple("done", null, ""));
    assertThat(rows.get(0).age()).isEqualTo("30m");
    assertThat(JobRows.table(rows)).contains("POSITION").contains("first").contains("Job");
  }
}
