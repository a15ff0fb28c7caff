package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * The job stream of benchmarks B2 and B3, the same for every system measured: batch/v1 Jobs of
 * 1 to 4 pods in three classes (1 CPU per pod running 1 s, 60 %; 2 CPU for 2 s, 30 %; 4 CPU for
 * 3 s, 10 %), drawn from a fixed seed, spread over {@value #QUEUES} queues with skewed demand
 * (queue {@code q} gets {@code q + 1} parts of 55) so that light queues lend and heavy ones
 * borrow. KWOK completes each pod after its class's run time.
 */
final class AdmissionWorkload {
  static final int QUEUES = 10;
  /** How long KWOK lets a pod run: read by the local cluster's pod-complete stage. */
  static final String RUN_TIME_ANNOTATION = "pod-complete.stage.kwok.x-k8s.io/delay";

  /** One job of the stream. */
  record JobShape(int index, int queue, int pods, int cpuPerPod, int runSeconds) {
    String name() {
      return "job-" + index;
    }

    int cpu() {
      return pods * cpuPerPod;
    }
  }

  private final List<JobShape> jobs;

  AdmissionWorkload(int count, long seed) {
    Random random = new Random(seed);
    int totalWeight = QUEUES * (QUEUES + 1) / 2;
    jobs =
        IntStream.range(0, count)
            .mapToObj(
                i -> {
                  int queue = queueOf(random.nextInt(totalWeight));
                  int pods = 1 + random.nextInt(4);
                  int draw = random.nextInt(10);
                  return draw < 6
                      ? new JobShape(i, queue, pods, 1, 1)
                      : draw < 9 ? new JobShape(i, queue, pods, 2, 2) : new JobShape(i, queue, pods, 4, 3);
                })
            .toList();
  }

  /** Queue {@code q} owns {@code q + 1} consecutive draws of the weight range. */
  private static int queueOf(int draw) {
    int queue = 0;
    int bound = 1;
    while (draw >= bound) {
      queue++;
      bound += queue + 1;
    }
    return queue;
  }

  List<JobShape> jobs() {
    return jobs;
  }

  /** The CPU that all of queue {@code queue}'s jobs ask for together. */
  int cpuOfQueue(int queue) {
    return jobs.stream().filter(job -> job.queue() == queue).mapToInt(JobShape::cpu).sum();
  }

  int cpu() {
    return jobs.stream().mapToInt(JobShape::cpu).sum();
  }

  int pods() {
    return jobs.stream().mapToInt(JobShape::pods).sum();
  }

  /**
   * The job as a user submits it: not suspended, with {@code labels} naming its queue (none for
   * the no-queue ceiling), its pods confined to the benchmark's nodes.
   */
  static Job job(String namespace, JobShape shape, Map<String, String> labels, BenchNodes pool) {
    Job job =
        new JobBuilder()
            .withNewMetadata().withName(shape.name()).withNamespace(namespace).withLabels(labels).endMetadata()
            .withNewSpec()
            .withParallelism(shape.pods())
            .withCompletions(shape.pods())
            .withNewTemplate()
            .withNewMetadata().addToAnnotations(RUN_TIME_ANNOTATION, shape.runSeconds() + "s").endMetadata()
            .withNewSpec()
            .withRestartPolicy("Never")
            .withTerminationGracePeriodSeconds(0L)
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .withNewResources()
            .addToRequests("cpu", new Quantity(Integer.toString(shape.cpuPerPod())))
            .endResources()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    pool.placeOnPool(job.getSpec().getTemplate().getSpec());
    return job;
  }
}
