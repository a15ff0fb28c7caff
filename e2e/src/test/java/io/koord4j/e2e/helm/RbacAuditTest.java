package io.koord4j.e2e.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.koord4j.e2e.helm.RbacAudit.Access;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RbacAuditTest {
  private static final String NS = "koord4j-system";

  private static final List<HasMetadata> CHART =
      List.of(
          new ClusterRoleBuilder().withNewMetadata().withName("k-manager").endMetadata()
              .addNewRule().withApiGroups("").withResources("nodes").withVerbs("list", "watch").endRule()
              .addNewRule().withApiGroups("batch").withResources("jobs/status").withVerbs("patch").endRule()
              .build(),
          new ClusterRoleBindingBuilder().withNewMetadata().withName("k-manager").endMetadata()
              .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "k-manager")
              .addNewSubject().withKind("ServiceAccount").withName("k-manager").withNamespace(NS).endSubject()
              .build(),
          new RoleBuilder().withNewMetadata().withName("k-manager").withNamespace(NS).endMetadata()
              .addNewRule().withApiGroups("coordination.k8s.io").withResources("leases").withVerbs("create").endRule()
              .build(),
          new RoleBindingBuilder().withNewMetadata().withName("k-manager").withNamespace(NS).endMetadata()
              .withNewRoleRef("rbac.authorization.k8s.io", "Role", "k-manager")
              .addNewSubject().withKind("ServiceAccount").withName("k-manager").withNamespace(NS).endSubject()
              .build());

  @Test
  void grantsAreExpandedPerVerbAndResourceThroughTheirBindings() {
    assertThat(RbacAudit.granted(CHART, NS))
        .containsOnlyKeys("k-manager")
        .extractingByKey("k-manager")
        .isEqualTo(Set.of(
            new Access("list", "", "nodes"),
            new Access("watch", "", "nodes"),
            new Access("patch", "batch", "jobs/status"),
            new Access("create", "coordination.k8s.io", "leases")));
  }

  @Test
  void requestsOfTheNamespacesServiceAccountsCountAsUseWithTheirSubresource() {
    Map<String, Set<Access>> used =
        RbacAudit.used(
            Stream.of(
                event("k-manager", "list", "", "nodes", null, 200),
                event("k-manager", "patch", "batch", "jobs", "status", 200),
                event("other", "get", "", "pods", null, 200).replace(NS, "elsewhere")),
            NS);

    assertThat(used).containsOnlyKeys("k-manager");
    assertThat(used.get("k-manager"))
        .containsExactlyInAnyOrder(new Access("list", "", "nodes"), new Access("patch", "batch", "jobs/status"));
  }

  @Test
  void grantsNeitherUsedNorAllowedAreReported() {
    Map<String, Set<Access>> used =
        Map.of("k-manager", Set.of(new Access("list", "", "nodes"), new Access("watch", "", "nodes")));
    Map<String, Set<Access>> allowed =
        Map.of("k-manager", Set.of(new Access("create", "coordination.k8s.io", "leases")));

    assertThat(RbacAudit.unused(RbacAudit.granted(CHART, NS), used, allowed))
        .isEqualTo(Map.of("k-manager", Set.of(new Access("patch", "batch", "jobs/status"))));
  }

  @Test
  void forbiddenRequestsAreListed() {
    List<String> forbidden =
        RbacAudit.forbidden(
            Stream.of(
                event("k-manager", "get", "", "secrets", null, 403),
                event("k-manager", "list", "", "nodes", null, 200)),
            NS);

    assertThat(forbidden).singleElement().asString().startsWith("k-manager: get core/secrets");
  }

  private static String event(
      String account, String verb, String group, String resource, String subresource, int code) {
    return """
        {"kind":"Event","stage":"ResponseComplete","requestURI":"/x","verb":"%s",\
        "user":{"username":"system:serviceaccount:%s:%s"},\
        "objectRef":{"resource":"%s",%s"apiGroup":"%s"},"responseStatus":{"code":%d}}"""
        .formatted(verb, NS, account, resource,
            subresource == null ? "" : "\"subresource\":\"" + subresource + "\",", group, code);
  }
}
