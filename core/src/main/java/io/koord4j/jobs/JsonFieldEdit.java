package io.koord4j.jobs;

import com.fasterxml.jackson.core.JsonPointer;
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
    ObjectNode parent = object;
    JsonPointer walked = JsonPointer.empty();
    JsonPointer rest = field.path();
    while (!rest.tail().matches()) {
      String property = rest.getMatchingProperty();
      walked = walked.appendProperty(property);
      JsonNode child = parent.get(property);
      if (child == null || child.isNull()) {
        if (field.value() != null) {
          JsonNode created = nested(rest.tail(), field.value(), added);
          parent.set(property, created);
          if (!added.contains(parent)) {
            operation(patch, "add", walked, created);
          }
        }
        return;
      }
      if (!child.isObject()) {
        throw new IllegalArgumentException(walked + " must be an object, found " + child.getNodeType());
      }
      parent = (ObjectNode) child;
      rest = rest.tail();
    }
    String leaf = rest.getMatchingProperty();
    JsonNode current = parent.get(leaf);
    boolean inAdded = added.contains(parent);
    if (field.value() == null) {
      if (current != null) {
        parent.remove(leaf);
        if (!inAdded) {
          operation(patch, "remove", field.path(), null);
        }
      }
    } else if (!field.value().equals(current)) {
      parent.set(leaf, field.value());
      if (!inAdded) {
        operation(patch, current == null ? "add" : "replace", field.path(), field.value());
      }
    }
  }

  /** {@code value} inside objects named by the pointer's properties, each recorded as added. */
  private static JsonNode nested(JsonPointer path, JsonNode value, Set<JsonNode> added) {
    if (path.matches()) {
      return value;
    }
    ObjectNode wrapper = JsonNodeFactory.instance.objectNode();
    added.add(wrapper);
    wrapper.set(path.getMatchingProperty(), nested(path.tail(), value, added));
    return wrapper;
  }

  private static void operation(ArrayNode patch, String op, JsonPointer path, JsonNode value) {
    ObjectNode operation = patch.addObject().put("op", op).put("path", path.toString());
    if (value != null) {
      operation.set("value", value);
    }
  }
}
