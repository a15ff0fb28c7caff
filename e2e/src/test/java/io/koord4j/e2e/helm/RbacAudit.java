package io.koord4j.e2e.helm;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Compares what each ServiceAccount is granted (the chart's Roles and ClusterRoles through their
 * bindings) with what it did (the API server's audit log): every grant must be used, and no
 * request may be forbidden.
 */
final class RbacAudit {
  /** One verb on one resource of one API group; resource may name a subresource ("pods/status"). */
  record Access(String verb, String group, String resource) implements Comparable<Access> {
    @Override
    public int compareTo(Access other) {
      return toString().compareTo(other.toString());
    }

    @Override
    public String toString() {
      return verb + " " + (group.isEmpty() ? "core" : group) + "/" + resource;
    }
  }

  private RbacAudit() {}

  /** Per ServiceAccount name (in {@code namespace}): every access its bindings grant. */
  static Map<String, Set<Access>> granted(List<HasMetadata> objects, String namespace) {
    Map<String, List<PolicyRule>> roles = new HashMap<>();
    for (HasMetadata object : objects) {
      if (object instanceof ClusterRole role) {
        roles.put("ClusterRole/" + role.getMetadata().getName(), role.getRules());
      } else if (object instanceof Role role) {
        roles.put("Role/" + role.getMetadata().getName(), role.getRules());
      }
    }
    Map<String, Set<Access>> granted = new TreeMap<>();
    for (HasMetadata object : objects) {
      RoleRef ref;
      List<Subject> subjects;
      if (object instanceof ClusterRoleBinding binding) {
        ref = binding.getRoleRef();
        subjects = binding.getSubjects();
      } else if (object instanceof RoleBinding binding) {
        ref = binding.getRoleRef();
        subjects = binding.getSubjects();
      } else {
        continue;
      }
      List<PolicyRule> rules = roles.getOrDefault(ref.getKind() + "/" + ref.getName(), List.of());
      for (Subject subject : subjects) {
        if ("ServiceAccount".equals(subject.getKind()) && namespace.equals(subject.getNamespace())) {
          rules.forEach(rule -> expand(rule).forEach(access ->
              granted.computeIfAbsent(subject.getName(), sa -> new TreeSet<>()).add(access)));
        }
      }
    }
    return granted;
  }

  /** Per ServiceAccount name (in {@code namespace}): every access seen in the audit log. */
  static Map<String, Set<Access>> used(Stream<String> auditLines, String namespace) {
    Map<String, Set<Access>> used = new TreeMap<>();
    events(auditLines, namespace).forEach(event -> used
        .computeIfAbsent(serviceAccount(event, namespace), sa -> new TreeSet<>())
        .add(access(event)));
    return used;
  }

  /** Requests of the namespace's ServiceAccounts that the API server refused with 403. */
  static List<String> forbidden(Stream<String> auditLines, String namespace) {
    return events(auditLines, namespace)
        .filter(event -> event.path("responseStatus").path("code").asInt() == 403)
        .map(event -> serviceAccount(event, namespace) + ": " + access(event) + " " + event.path("requestURI").asText())
        .toList();
  }

  /** Granted accesses never used and not in {@code allowed} (justified exceptions), per account. */
  static Map<String, Set<Access>> unused(
      Map<String, Set<Access>> granted, Map<String, Set<Access>> used, Map<String, Set<Access>> allowed) {
    Map<String, Set<Access>> unused = new TreeMap<>();
    granted.forEach((account, accesses) -> {
      Set<Access> left = new TreeSet<>(accesses);
      left.removeAll(used.getOrDefault(account, Set.of()));
      left.removeAll(allowed.getOrDefault(account, Set.of()));
      if (!left.isEmpty()) {
        unused.put(account, left);
      }
    });
    return unused;
  }

  private static List<Access> expand(PolicyRule rule) {
    List<Access> accesses = new ArrayList<>();
    for (String group : rule.getApiGroups()) {
      for (String resource : rule.getResources()) {
        for (String verb : rule.getVerbs()) {
          accesses.add(new Access(verb, group, resource));
        }
      }
    }
    return accesses;
  }

  private static Stream<JsonNode> events(Stream<String> auditLines, String namespace) {
    String prefix = "system:serviceaccount:" + namespace + ":";
    return auditLines
        .filter(line -> !line.isBlank())
        .map(RbacAudit::parse)
        .filter(event -> event.path("user").path("username").asText().startsWith(prefix))
        // A watch is logged when it starts and when it ends; both count once.
        .filter(event -> event.has("objectRef"));
  }

  private static String serviceAccount(JsonNode event, String namespace) {
    return event.path("user").path("username").asText().substring(("system:serviceaccount:" + namespace + ":").length());
  }

  private static Access access(JsonNode event) {
    JsonNode ref = event.path("objectRef");
    String resource = ref.path("resource").asText();
    if (ref.hasNonNull("subresource")) {
      resource += "/" + ref.path("subresource").asText();
    }
    return new Access(event.path("verb").asText(), ref.path("apiGroup").asText(""), resource);
  }

  private static JsonNode parse(String line) {
    try {
      return Serialization.jsonMapper().readTree(line);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException("not an audit event: " + line, e);
    }
  }
}
