package io.koord4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JVM options and environment the Helm chart gives a component by default, so benchmarks run it as deployed. */
final class ChartJvmOptions {
  private static final Path VALUES = Path.of("helm", "koord4j", "values.yaml");

  private ChartJvmOptions() {}

  /** The options of {@code <component>.javaOptions} in the chart's values, e.g. of "manager". */
  static List<String> of(String component) {
    JsonNode options = values().path(component).path("javaOptions");
    if (!options.isTextual()) {
      throw new IllegalStateException(VALUES + " has no " + component + ".javaOptions");
    }
    return Arrays.stream(options.asText().trim().split("\\s+")).filter(option -> !option.isEmpty()).toList();
  }

  /**
   * The environment the chart gives a component besides its settings: {@code javaEnv}, then
   * {@code <component>.extraEnv}, by name.
   */
  static Map<String, String> environment(String component) {
    Map<String, String> environment = new TreeMap<>();
    JsonNode values = values();
    for (JsonNode list : List.of(values.path("javaEnv"), values.path(component).path("extraEnv"))) {
      list.forEach(variable -> environment.put(variable.path("name").asText(), variable.path("value").asText()));
    }
    return environment;
  }

  private static JsonNode values() {
    Path file = LocalCluster.repoRoot().resolve(VALUES);
    try {
      return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
