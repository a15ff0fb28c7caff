package io.koord4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The JVM options the Helm chart gives a component by default, so benchmarks run it as deployed. */
final class ChartJvmOptions {
  private static final Path VALUES = Path.of("helm", "koord4j", "values.yaml");

  private ChartJvmOptions() {}

  /** The options of {@code <component>.javaOptions} in the chart's values, e.g. of "manager". */
  static List<String> of(String component) {
    Path file = LocalCluster.repoRoot().resolve(VALUES);
    try {
      JsonNode options = new ObjectMapper(new YAMLFactory()).readTree(file.toFile()).path(component).path("javaOptions");
      if (!options.isTextual()) {
        throw new IllegalStateException(file + " has no " + component + ".javaOptions");
      }
      return Arrays.stream(options.asText().trim().split("\\s+")).filter(option -> !option.isEmpty()).toList();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
