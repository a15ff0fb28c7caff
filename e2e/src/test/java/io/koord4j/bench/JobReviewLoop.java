package io.koord4j.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.QueueLookup;
import io.koord4j.webhook.http.AdmissionEndpoint;
import io.koord4j.webhook.http.AdmissionRoute;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * koord4j's job handler alone, in this JVM and on one thread, as the webhook server calls it
 * ({@link AdmissionEndpoint#reply}), over the review of one queued Job as the API server sends it:
 * its CPU per review in rounds, from cold to compiled, and the whole JVM's CPU meanwhile, which
 * adds the JIT compiler's work. Run first in a fresh JVM, it shows what a new webhook process pays
 * for its first reviews.
 */
final class JobReviewLoop {
  /** Queues are not what this times: every queue exists. */
  private static final QueueLookup EVERY_QUEUE =
      new QueueLookup() {
        @Override
        public boolean exists(String queue) {
          return true;
        }

        @Override
        public boolean existsIn(String namespace, String queue) {
          return true;
        }
      };

  /** The handler's own CPU per review in each round, and the JVM's CPU over all rounds. */
  record Result(int perRound, List<Double> microsPerReview, Duration processCpu) {
    int reviews() {
      return perRound * microsPerReview.size();
    }

    /** What the reviews would have cost at the last round's rate: the compiled handler alone. */
    Duration atCompiledRate() {
      return Duration.ofNanos(Math.round(microsPerReview.get(microsPerReview.size() - 1) * 1000 * reviews()));
    }
  }

  private JobReviewLoop() {}

  /** @param job the Job as the API server would hand it to a webhook (defaulted), naming a queue */
  static Result run(Job job, int rounds, int perRound) throws JsonProcessingException {
    byte[] review = Json.MAPPER.writeValueAsBytes(review(job));
    AdmissionRoute route = AdmissionRoute.failingClosed(new JobMutator(JobAdapters.builtIn(), EVERY_QUEUE, List::of, false, "koord4j").handler(false));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Duration processBefore = processCpu();
    List<Double> microsPerReview = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      long before = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < perRound; i++) {
        if (AdmissionEndpoint.reply(route, review, request -> {}, () -> {}).status() != 200) {
          throw new IllegalStateException("the handler refused the review");
        }
      }
      microsPerReview.add((threads.getCurrentThreadCpuTime() - before) / 1e3 / perRound);
    }
    return new Result(perRound, microsPerReview, processCpu().minus(processBefore));
  }

  private static AdmissionReview review(Job job) {
    return new AdmissionReviewBuilder()
        .withApiVersion("admission.k8s.io/v1")
        .withKind("AdmissionReview")
        .withNewRequest()
        .withUid(UUID.randomUUID().toString())
        .withNewKind("batch", "Job", "v1")
        .withNewResource("batch", "jobs", "v1")
        .withNewRequestKind("batch", "Job", "v1")
        .withNewRequestResource("batch", "jobs", "v1")
        .withName(job.getMetadata().getName())
        .withNamespace(job.getMetadata().getNamespace())
        .withOperation("CREATE")
        .withNewUserInfo().withUsername("kubernetes-admin").withGroups("system:masters", "system:authenticated").endUserInfo()
        .withObject(job)
        .withDryRun(false)
        .endRequest()
        .build();
  }

  private static Duration processCpu() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow();
  }

}
