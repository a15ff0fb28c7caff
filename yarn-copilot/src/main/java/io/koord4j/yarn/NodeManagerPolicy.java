package io.koord4j.yarn;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which pods labelled as NodeManagers the copilot takes as such. It gives a NodeManager pod's node
 * id the batch resources of the pod's node, so a pod that anyone allowed to create pods could
 * label would let a tenant hand a node's room to YARN, or take it away: only pods in these
 * namespaces, running as one of these ServiceAccounts, count.
 *
 * @param namespaces ({@code KOORD4J_YARN_NODE_MANAGER_NAMESPACES}, default the copilot's own)
 * @param serviceAccounts the ServiceAccount names accepted in those namespaces ({@code
 *     KOORD4J_YARN_NODE_MANAGER_SERVICE_ACCOUNTS}, default {@value #DEFAULT_SERVICE_ACCOUNT})
 */
public record NodeManagerPolicy(Set<String> namespaces, Set<String> serviceAccounts) {
  public static final String DEFAULT_SERVICE_ACCOUNT = "yarn-node-manager";
  /** The account of a pod that names none. */
  private static final String DEFAULT_ACCOUNT_OF_PODS = "default";

  public NodeManagerPolicy {
    namespaces = Collections.unmodifiableSortedSet(new TreeSet<>(namespaces));
    serviceAccounts = Collections.unmodifiableSortedSet(new TreeSet<>(serviceAccounts));
  }

  /** Why the pod is not taken as a NodeManager, or empty when it is. */
  Optional<String> refusal(Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    if (!namespaces.contains(namespace)) {
      return Optional.of(
          "namespace " + namespace + " is not among the NodeManager namespaces " + namespaces);
    }
    String account = serviceAccountOf(pod);
    if (!serviceAccounts.contains(account)) {
      return Optional.of(
          "ServiceAccount " + account + " is not among the NodeManager ServiceAccounts "
              + serviceAccounts);
    }
    return Optional.empty();
  }

  private static String serviceAccountOf(Pod pod) {
    String account = pod.getSpec().getServiceAccountName();
    return account == null || account.isEmpty() ? DEFAULT_ACCOUNT_OF_PODS : account;
  }
}
