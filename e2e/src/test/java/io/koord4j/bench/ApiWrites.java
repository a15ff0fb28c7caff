package io.koord4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the API server has served, by resource (and subresource, as {@code queueunits/status}),
 * from its {@code apiserver_request_total} counter; the difference of two readings is what
 * happened in between, from every client.
 */
final class ApiWrites {
  private static final Set<String> WRITE_VERBS = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");
  private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  private ApiWrites() {}

  static Map<String, Double> read(KubernetesClient client) {
    Map<String, Double> writes = new HashMap<>();
    for (String line : client.raw("/metrics").split("\n")) {
      Matcher sample = SAMPLE.matcher(line);
      if (!sample.matches()) {
        continue;
      }
      Map<String, String> labels = new HashMap<>();
      Matcher label = LABEL.matcher(sample.group(1));
      while (label.find()) {
        labels.put(label.group(1), label.group(2));
      }
      if (WRITE_VERBS.contains(labels.get("verb"))) {
        String subresource = labels.getOrDefault("subresource", "");
        String key = labels.get("resource") + (subresource.isEmpty() ? "" : "/" + subresource);
        writes.merge(key, Double.parseDouble(sample.group(2)), Double::sum);
      }
    }
    return writes;
  }

  /** {@code after - before}, by resource. */
  static Map<String, Double> between(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> difference = new HashMap<>();
    after.forEach((key, value) -> difference.put(key, value - before.getOrDefault(key, 0.0)));
    return difference;
  }
}
