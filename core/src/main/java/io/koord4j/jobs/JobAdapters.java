package io.koord4j.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The job kinds the queue manages, looked up by apiVersion and kind. */
public final class JobAdapters {

  private final Map<String, JobAdapter<?>> byApiVersionAndKind = new LinkedHashMap<>();

  /** Every job kind koord4j supports. A new kind is one line here. */
  public static JobAdapters builtIn() {
    return new JobAdapters(
        List.of(
            new BatchJobAdapter(),
            new TFJobAdapter(),
            new PyTorchJobAdapter(),
            new MPIJobAdapter(),
            new SparkApplicationAdapter(),
            new RayJobAdapter(),
            new RayClusterAdapter(),
            new WorkflowAdapter()));
  }

  /**
   * A registry of the given adapters.
   *
   * @throws IllegalArgumentException if two adapters claim the same apiVersion and kind
   */
  public JobAdapters(List<JobAdapter<?>> adapters) {
    for (JobAdapter<?> adapter : adapters) {
      JobAdapter<?> previous =
          byApiVersionAndKind.putIfAbsent(key(adapter.apiVersion(), adapter.kind()), adapter);
      if (previous != null) {
        throw new IllegalArgumentException(
            "two adapters for " + adapter.apiVersion() + " " + adapter.kind());
      }
    }
  }

  /** The adapter for a kind, or empty when the queue does not manage that kind. */
  public Optional<JobAdapter<?>> find(String apiVersion, String kind) {
    return Optional.ofNullable(byApiVersionAndKind.get(key(apiVersion, kind)));
  }

  /** All adapters, in registration order, e.g. to start one watch per kind. */
  public List<JobAdapter<?>> all() {
    return List.copyOf(byApiVersionAndKind.values());
  }

  private static String key(String apiVersion, String kind) {
    return apiVersion + "/" + kind;
  }
}
