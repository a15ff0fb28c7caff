package io.koord4j.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A field of an object's JSON, named by the properties that lead to it, and the value it must
 * hold; a {@code null} value means the field must be absent. Jobs are held and released by such
 * fields (see {@link JobAdapter#suspensionFields}), so that the webhook can write them as a patch
 * without reading the job into its type.
 */
public record JsonField(List<String> path, JsonNode value) {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  public JsonField {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("a field needs a path");
    }
    path = List.copyOf(path);
  }

  /** The field under {@code properties}, e.g. {@code ("spec", "suspend")}, holding {@code value}. */
  public static JsonField of(boolean value, String... properties) {
    return new JsonField(List.of(properties), JsonNodeFactory.instance.booleanNode(value));
  }

  /** The field under {@code properties} holding the string {@code value}. */
  public static JsonField of(String value, String... properties) {
    return new JsonField(List.of(properties), JsonNodeFactory.instance.textNode(value));
  }

  /** The field under {@code properties}, which must be absent. */
  public static JsonField absent(String... properties) {
    return new JsonField(List.of(properties), null);
  }

  /** Whether the object's JSON holds the field's value; a field that must be absent holds when it is. */
  public boolean holdsIn(JsonNode object) {
    JsonNode found = object.at(pointer(path.size()));
    return value == null ? found.isMissingNode() || found.isNull() : value.equals(found);
  }

  /**
   * The field as Kubernetes names it in messages: properties joined by dots, a key that is no
   * identifier in brackets, e.g. {@code spec.runPolicy.suspend} or {@code
   * metadata.annotations[scheduling.x-k8s.io/suspend]}.
   */
  public String fieldPath() {
    StringBuilder name = new StringBuilder();
    for (String property : path) {
      if (isIdentifier(property)) {
        name.append(name.isEmpty() ? "" : ".").append(property);
      } else {
        name.append('[').append(property).append(']');
      }
    }
    return name.toString();
  }

  /** Whether a property can be named bare after a dot, as in {@code spec.suspend}, rather than as a key. */
  public static boolean isIdentifier(String property) {
    return IDENTIFIER.matcher(property).matches();
  }

  /** The RFC 6901 pointer to the field's first {@code depth} properties, e.g. {@code /spec}. */
  public String pointer(int depth) {
    StringBuilder pointer = new StringBuilder();
    for (String property : path.subList(0, depth)) {
      pointer.append('/').append(property.replace("~", "~0").replace("/", "~1"));
    }
    return pointer.toString();
  }
}
