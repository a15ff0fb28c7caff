package io.koord4j.jobs;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A field of an object's JSON and the value it must hold; a {@code null} value means the field
 * must be absent. Jobs are held and released by such fields (see {@link JobAdapter#suspensionFields}),
 * so that the webhook can write them as a patch without reading the job into its type.
 */
public record JsonField(JsonPointer path, JsonNode value) {

  /** The field under {@code properties}, e.g. {@code ("spec", "suspend")}, holding {@code value}. */
  public static JsonField of(boolean value, String... properties) {
    return new JsonField(pointer(properties), JsonNodeFactory.instance.booleanNode(value));
  }

  /** The field under {@code properties} holding the string {@code value}. */
  public static JsonField of(String value, String... properties) {
    return new JsonField(pointer(properties), JsonNodeFactory.instance.textNode(value));
  }

  /** The field under {@code properties}, which must be absent. */
  public static JsonField absent(String... properties) {
    return new JsonField(pointer(properties), null);
  }

  private static JsonPointer pointer(String... properties) {
    JsonPointer pointer = JsonPointer.empty();
    for (String property : properties) {
      pointer = pointer.appendProperty(property);
    }
    return pointer;
  }
}
