package io.koord4j.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/** The Markdown report of benchmarks B2 and B3. */
final class AdmissionReport {
  /** Each system's own kinds, whose writes show its cost per admission. */
  private static final List<String> OWN_KINDS =
      List.of(
          "queueunits", "queueunits/status", "elasticquotas", "elasticquotas/status", "queues",
          "queues/status", "podgroups", "workloads", "workloads/status", "clusterqueues/status",
          "localqueues/status", "cohorts/status", "jobs", "jobs/status", "pods", "pods/status");
  private static final double FIRST_SHARE = 0.2;

  private AdmissionReport() {}

  static String markdown(
      AdmissionWorkload workload, AdmissionQuotas.Limits limits, List<AdmissionRound> rounds, double rate,
      int nodes, int warmupJobs, boolean withKueue, boolean profile) {
    List<AdmissionWorkload.JobShape> jobs = workload.jobs();
    List<String> lines = new ArrayList<>();
    lines.add(withKueue
        ? "# B2: admission, koord4j vs Kueue 0.17 (with B3: the no-queue ceiling)"
        : "# B3: koord4j against the no-queue ceiling");
    lines.add("");
    lines.add(String.format(Locale.ROOT,
        "%,d batch/v1 Jobs (1-4 pods; 1 CPU per pod for 1 s, 2 CPU for 2 s or 4 CPU for 3 s), created"
            + " at %.0f/s into %d queues of skewed demand over a two-level quota tree (%s), on %d KWOK"
            + " nodes of 40 CPU of their own, scheduled by kube-scheduler. Rounds: %d; each round runs"
            + " every system alone, koord4j and Kueue alternating first, each queue after a warm-up"
            + " block of %,d other jobs run to completion. Admission: the benchmark's watch sees the"
            + " job unsuspended; time to admission counts from sending its create.",
        jobs.size(), rate, AdmissionWorkload.QUEUES, limits.description(), nodes,
        rounds.stream().mapToInt(AdmissionRound::round).max().orElse(0), warmupJobs));
    lines.add("");
    lines.add("| round | system | admitted | held first | create to last admission (s) | create to all pods (s)"
        + " | time to admission mean (s) | p99 (s) | admission to completion mean (s) | creates/s"
        + " | load average start → end |");
    lines.add("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (AdmissionRound round : rounds) {
      LoadResult all = round.timeToAdmission(jobs, -1);
      lines.add(String.format(Locale.ROOT, "| %d | %s | %,d | %,d | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f → %.1f |",
          round.round(), round.system(), round.admitted(), round.held(), round.wallSeconds(),
          round.allPodsSeconds(), AdmissionRound.meanSeconds(all), all.percentileMillis(0.99) / 1000,
          round.admissionToCompletionSeconds(), round.creation().rate(), round.loadStart(), round.loadEnd()));
    }
    List<AdmissionRound> koord4j = of(rounds, AdmissionSystem.KOORD4J);
    List<AdmissionRound> kueue = of(rounds, AdmissionSystem.KUEUE);
    List<AdmissionRound> none = of(rounds, AdmissionSystem.NONE);
    if (withKueue && !koord4j.isEmpty() && !kueue.isEmpty()) {
      comparison(lines, jobs, koord4j, kueue);
    }
    if (!koord4j.isEmpty() && !none.isEmpty()) {
      ceiling(lines, koord4j, none, withKueue);
    }
    writes(lines, rounds);
    lines.add("");
    if (profile) {
      lines.add("The manager ran with a flight recording per round (`target/bench/logs/*.jfr`).");
      lines.add("");
    }
    lines.add("The manager's JVM options: `" + String.join(" ", ManagerJvm.Config.chosen().javaOptions()) + "`.");
    lines.add("");
    lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs shared with the control plane;"
        + " run at " + Instant.now() + ".");
    return String.join("\n", lines) + "\n";
  }

  private static void comparison(
      List<String> lines, List<AdmissionWorkload.JobShape> jobs, List<AdmissionRound> koord4j,
      List<AdmissionRound> kueue) {
    lines.add("");
    lines.add("## koord4j vs Kueue (all rounds; goal: koord4j / Kueue ≤ 0.5)");
    lines.add("");
    lines.add("| | koord4j | Kueue | koord4j / Kueue |");
    lines.add("|---|---:|---:|---:|");
    ratioRow(lines, "create to last admission, mean of rounds (s)",
        mean(koord4j, AdmissionRound::wallSeconds), mean(kueue, AdmissionRound::wallSeconds));
    LoadResult koordAll = pooled(koord4j, jobs, -1);
    LoadResult kueueAll = pooled(kueue, jobs, -1);
    ratioRow(lines, "time to admission, mean (s)", AdmissionRound.meanSeconds(koordAll), AdmissionRound.meanSeconds(kueueAll));
    ratioRow(lines, "time to admission, p99 (s)",
        koordAll.percentileMillis(0.99) / 1000, kueueAll.percentileMillis(0.99) / 1000);
    lines.add("");
    lines.add("Per queue (queue q gets q + 1 parts of 55 of the jobs; leaves 2p and 2p + 1 share parent p):");
    lines.add("");
    lines.add("| queue | jobs per round | mean koord4j (s) | mean Kueue (s) | ratio | p99 koord4j (s) | p99 Kueue (s) | ratio"
        + " | first " + Math.round(FIRST_SHARE * 100) + " % koord4j | first " + Math.round(FIRST_SHARE * 100) + " % Kueue |");
    lines.add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    int[] firstKoord = firstAdmitted(koord4j, jobs);
    int[] firstKueue = firstAdmitted(kueue, jobs);
    for (int q = 0; q < AdmissionWorkload.QUEUES; q++) {
      int queue = q;
      LoadResult a = pooled(koord4j, jobs, q);
      LoadResult b = pooled(kueue, jobs, q);
      double meanA = AdmissionRound.meanSeconds(a);
      double meanB = AdmissionRound.meanSeconds(b);
      double p99A = a.percentileMillis(0.99) / 1000;
      double p99B = b.percentileMillis(0.99) / 1000;
      lines.add(String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %d |",
          q, jobs.stream().filter(j -> j.queue() == queue).count(), meanA, meanB, meanA / meanB,
          p99A, p99B, p99A / p99B, firstKoord[q], firstKueue[q]));
    }
    lines.add("");
    lines.add(String.format(Locale.ROOT,
        "The last two columns sum, over all rounds, which queues the first %d %% of each round's admissions"
            + " went to. Jobs admitted before the job created just before them in their queue: koord4j"
            + " %.1f %%, Kueue %.1f %%.",
        Math.round(FIRST_SHARE * 100), 100 * mean(koord4j, r -> r.outOfOrder(jobs)),
        100 * mean(kueue, r -> r.outOfOrder(jobs))));
  }

  private static void ceiling(
      List<String> lines, List<AdmissionRound> koord4j, List<AdmissionRound> none, boolean contended) {
    lines.add("");
    lines.add("## B3: the no-queue ceiling (goal: koord4j / no queue ≤ 1.2)");
    lines.add("");
    lines.add("The same jobs created unsuspended with no queue: nothing holds them, so the control plane"
        + " creates their pods as fast as it can, with no quota to wait for. "
        + (contended
            ? "Here koord4j's jobs wait for the contended tree, so the ratio shows the quota, not the"
                + " queue; `-Dbench.only=B3` runs koord4j over a tree and nodes that hold the whole stream."
            : "koord4j's tree and the nodes hold the whole stream at once, so its jobs wait only for"
                + " the queue itself."));
    lines.add("");
    lines.add("| | koord4j | no queue | koord4j / no queue |");
    lines.add("|---|---:|---:|---:|");
    ratioRow(lines, "create to all pods exist, mean of rounds (s)",
        mean(koord4j, AdmissionRound::allPodsSeconds), mean(none, AdmissionRound::allPodsSeconds));
  }

  private static void writes(List<String> lines, List<AdmissionRound> rounds) {
    List<AdmissionSystem> systems = rounds.stream().map(AdmissionRound::system).distinct().toList();
    TreeSet<String> kinds = new TreeSet<>();
    rounds.forEach(r -> r.writes().forEach((kind, count) -> {
      if (OWN_KINDS.contains(kind) && count > 0) {
        kinds.add(kind);
      }
    }));
    lines.add("");
    lines.add("## API writes per admitted job (mean of rounds; from the API server's `apiserver_request_total`, every client)");
    lines.add("");
    lines.add("| resource | " + String.join(" | ", systems.stream().map(Object::toString).toList()) + " |");
    lines.add("|---|" + "---:|".repeat(systems.size()));
    for (String kind : kinds) {
      StringBuilder row = new StringBuilder("| " + kind + " |");
      for (AdmissionSystem system : systems) {
        row.append(String.format(Locale.ROOT, " %.2f |", mean(of(rounds, system), r -> r.writesPerAdmission(kind))));
      }
      lines.add(row.toString());
    }
  }

  private static void ratioRow(List<String> lines, String name, double koord4j, double other) {
    lines.add(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f |", name, koord4j, other, koord4j / other));
  }

  private static List<AdmissionRound> of(List<AdmissionRound> rounds, AdmissionSystem system) {
    return rounds.stream().filter(r -> r.system() == system).toList();
  }

  private static double mean(List<AdmissionRound> rounds, ToDoubleFunction<AdmissionRound> figure) {
    return rounds.stream().mapToDouble(figure).average().orElse(Double.NaN);
  }

  /** One queue's times to admission (every queue's for a negative one) over all rounds. */
  private static LoadResult pooled(List<AdmissionRound> rounds, List<AdmissionWorkload.JobShape> jobs, int queue) {
    return new LoadResult(
        rounds.stream()
            .flatMapToLong(r -> LongStream.of(r.timeToAdmission(jobs, queue).latencyNanos()))
            .toArray(),
        0, java.util.Optional.empty(), 0);
  }

  private static int[] firstAdmitted(List<AdmissionRound> rounds, List<AdmissionWorkload.JobShape> jobs) {
    return rounds.stream()
        .map(r -> r.firstAdmittedByQueue(jobs, FIRST_SHARE))
        .reduce(new int[AdmissionWorkload.QUEUES], (a, b) -> IntStream.range(0, a.length).map(i -> a[i] + b[i]).toArray());
  }
}
