package io.koord4j.device;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The JSON objects that device annotations hold, read with errors that name the annotation. */
final class AnnotationJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AnnotationJson() {}

  /**
   * @param where names the object and annotation in errors, e.g. {@code Device n1: annotation ...}
   * @param shape what the object must be, e.g. {@code a JSON object keyed by device type}
   * @throws InvalidDeviceSpecException when the value is not JSON or not an object
   */
  static JsonNode object(String where, String json, String shape) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidDeviceSpecException(where + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new InvalidDeviceSpecException(where + " must be " + shape);
    }
    return root;
  }
}
