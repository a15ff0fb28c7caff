package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Compares JSON trees the way the API server treats manifests: a scalar is equal to another when
 * their text is, because quantities and int-or-strings may come back as numbers or as strings.
 */
final class JsonTrees {
  private JsonTrees() {}

  /** Every field, list item and scalar of {@code expected} is in {@code actual}, and no more. */
  static void assertSame(JsonNode expected, JsonNode actual, String where) {
    assertContains(expected, actual, where);
    assertContains(actual, expected, where + " (reverse)");
  }

  /** Every field, list item and scalar of {@code expected} is in {@code actual}. */
  static void assertContains(JsonNode expected, JsonNode actual, String path) {
    if (actual == null || actual.isMissingNode()) {
      fail("%s is missing; expected %s", path, expected);
    }
    if (expected.isObject()) {
      assertThat(actual.isObject()).as("%s is an object", path).isTrue();
      for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        assertContains(field.getValue(), actual.get(field.getKey()), path + "." + field.getKey());
      }
    } else if (expected.isArray()) {
      assertThat(actual.isArray()).as("%s is a list", path).isTrue();
      assertThat(actual.size()).as("%s size", path).isEqualTo(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertContains(expected.get(i), actual.get(i), path + "[" + i + "]");
      }
    } else {
      assertThat(actual.asText()).as(path).isEqualTo(expected.asText());
    }
  }
}
