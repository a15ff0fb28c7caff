package io.koord4j.cli;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobAdapters;
import java.util.Locale;
import java.util.Optional;

/** The job kinds the queue knows ({@link JobAdapters}), named as kubectl users name them. */
final class JobKinds {
  private JobKinds() {}

  /**
   * @param name a kind or resource name, any case: {@code job}, {@code jobs}, {@code PyTorchJob},
   *     {@code pytorchjobs}
   */
  static ResourceDefinitionContext find(KubernetesClient client, String name) {
    JobAdapter<?> adapter = adapter(name);
    APIResource resource = served(client, adapter.apiVersion(), adapter.kind())
        .orElseThrow(() -> new CliFailure(CliFailure.NOT_FOUND,
            "the cluster does not serve " + adapter.kind() + " (" + adapter.apiVersion() + ")"));
    String[] groupVersion = adapter.apiVersion().split("/", 2);
    return new ResourceDefinitionContext.Builder()
        .withGroup(groupVersion.length == 2 ? groupVersion[0] : "")
        .withVersion(groupVersion[groupVersion.length - 1])
        .withKind(resource.getKind())
        .withPlural(resource.getName())
        .withNamespaced(true)
        .build();
  }

  static JobAdapter<?> adapter(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    return JobAdapters.builtIn().all().stream()
        .filter(adapter -> {
          String kind = adapter.kind().toLowerCase(Locale.ROOT);
          return wanted.equals(kind) || wanted.equals(kind + "s");
        })
        .findFirst()
        .orElseThrow(() -> new CliFailure(CliFailure.NOT_FOUND, "\"" + name
            + "\" is not a job kind koord4j queues; kinds: " + String.join(", ",
                JobAdapters.builtIn().all().stream().map(JobAdapter::kind).toList())));
  }

  private static Optional<APIResource> served(KubernetesClient client, String apiVersion, String kind) {
    APIResourceList resources = client.getApiResources(apiVersion);
    return resources == null
        ? Optional.empty()
        : resources.getResources().stream()
            .filter(r -> kind.equals(r.getKind()) && !r.getName().contains("/"))
            .findFirst();
  }
}
