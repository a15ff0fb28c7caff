package io.koord4j.cli;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.function.Supplier;

/** {@code -o}: a table for people, JSON or YAML of the same rows for scripts. */
enum OutputFormat {
  TABLE,
  JSON,
  YAML;

  String render(Object rows, Supplier<String> table) {
    return switch (this) {
      case TABLE -> table.get();
      case JSON -> Serialization.asJson(rows) + "\n";
      case YAML -> Serialization.asYaml(rows);
    };
  }
}
