package io.koord4j.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Sets fields on an object's JSON and records the RFC 6902 patch that does the same, in add,
 * replace and remove operations only: a field already holding its value costs no operation, and a
 * missing parent object is added with the field inside it.
 */
public final class JsonFieldEdit {
  private JsonFieldEdit() {}

  /**
   * Changes {@code object} in place so that every field holds its value, in order.
   *
   * @return the patch from the object as it was to the object as it is now
   * @throws IllegalArgumentException when a field's parent exists but is not an object
   */
  public static ArrayNode apply(ObjectNode object, List<JsonField> fields) {
    ArrayNode patch = JsonNodeFactory.instance.arrayNode();
    Set<JsonNode> added = Collections.newSetFromMap(new IdentityHashMap<>());
    for (JsonField field : fields) {
      set(object, field, patch, added);
    }
    return patch;
  }

  /**
   * @param added the objects an earlier operation of this patch added: a field inside one is set
   *     in place and so becomes part of that operation's value, needing none of its own
   */
  private static void set(ObjectNode object, JsonField field, ArrayNode patch, Set<JsonNode> added) {
    List<String> path = field.path();
    int last = path.size() - 1;
    ObjectNode parent = object;
    for (int depth = 0; depth < last; depth++) {
      String property = path.get(depth);
      JsonNode child = parent.get(property);
      if (child == null || child.isNull()) {
        if (field.value() != null) {
          JsonNode created = nested(path.subList(depth + 1, path.size()), field.value(), added);
          parent.set(property, created);
          if (!added.contains(parent)) {
            operation(patch, "add", field.pointer(depth + 1), created);
          }
        }
        return;
      }
      if (!child.isObject()) {
        throw new IllegalArgumentException(
            field.pointer(depth + 1) + " must be an object, found " + child.getNodeType());
      }
      parent = (ObjectNode) child;
    }
    String leaf = path.get(last);
    JsonNode current = parent.get(leaf);
    boolean inAdded = added.contains(parent);
    if (field.value() == null) {
      if (current != null) {
        parent.remove(leaf);
        if (!inAdded) {
          operation(patch, "remove", field.pointer(path.size()), null);
        }
      }
    } else if (!field.value().equals(current)) {
      parent.set(leaf, field.value());
      if (!inAdded) {
        operation(patch, current == null ? "add" : "replace", field.pointer(path.size()), field.value());
      }
    }
  }

  /** {@code value} inside objects named by {@code properties}, each recorded as added. */
  private static JsonNode nested(List<String> properties, JsonNode value, Set<JsonNode> added) {
    if (properties.isEmpty()) {
      return value;
    }
    ObjectNode wrapper = JsonNodeFactory.instance.objectNode();
    added.add(wrapper);
    wrapper.set(properties.get(0), nested(properties.subList(1, properties.size()), value, added));
    return wrapper;
  }

  private static void operation(ArrayNode patch, String op, String path, JsonNode value) {
    ObjectNode operation = patch.addObject().put("op", op).put("path", path);
    if (value != null) {
      operation.set("value", value);
    }
  }
}
