package io.koord4j.webhook.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonPatchDiffTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] KEYS = {"a", "b", "kueue.x-k8s.io/queue-name", "x~y", "", "0"};

  @Test
  void labelKeysWithSlashAndTildeAreEscaped() throws Exception {
    JsonNode before = Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"a\":\"1\"}}}");
    JsonNode after =
        Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"a\":\"1\",\"q.io/x~y\":\"2\"}}}");

    JsonNode patch = AdmissionResponses.diff(before, after);

    assertThat(patch.get(0).get("path").asText()).isEqualTo("/metadata/labels/q.io~1x~0y");
    assertThat(JsonPatch.apply(patch, before)).isEqualTo(after);
  }

  @Test
  void onlyAddRemoveAndReplaceAreUsed() throws Exception {
    JsonNode before = Json.MAPPER.readTree("{\"a\":{\"k\":\"v\"},\"b\":[1,2,3]}");
    JsonNode after = Json.MAPPER.readTree("{\"c\":{\"k\":\"v\"},\"b\":[3,1,2],\"d\":{\"k\":\"v\"}}");

    JsonNode patch = AdmissionResponses.diff(before, after);

    patch.forEach(op -> assertThat(op.get("op").asText()).isIn("add", "remove", "replace"));
    assertThat(JsonPatch.apply(patch, before)).isEqualTo(after);
  }

  @Test
  void patchOfRandomTreesTurnsTheOriginalIntoTheMutatedTree() {
    Random random = new Random(42);
    for (int i = 0; i < 2_000; i++) {
      JsonNode before = tree(random, 0);
      JsonNode after = mutate(before.deepCopy(), random, 0);

      JsonNode patch = AdmissionResponses.diff(before, after);

      assertThat(JsonPatch.apply(patch, before)).as("case %d: %s", i, patch).isEqualTo(after);
    }
  }

  private static JsonNode tree(Random random, int depth) {
    int choice = depth > 3 ? random.nextInt(3) : random.nextInt(5);
    switch (choice) {
      case 0:
        return NODES.textNode(KEYS[random.nextInt(KEYS.length)]);
      case 1:
        return NODES.numberNode(random.nextInt(5));
      case 2:
        return random.nextBoolean() ? NODES.booleanNode(random.nextBoolean()) : NODES.nullNode();
      case 3:
        ArrayNode array = NODES.arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          array.add(tree(random, depth + 1));
        }
        return array;
      default:
        ObjectNode object = NODES.objectNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          object.set(KEYS[random.nextInt(KEYS.length)], tree(random, depth + 1));
        }
        return object;
    }
  }

  /** Changes some members and elements: replace, remove, add, recurse. */
  private static JsonNode mutate(JsonNode node, Random random, int depth) {
    if (random.nextInt(6) == 0) {
      return tree(random, depth);
    }
    if (node instanceof ObjectNode object) {
      for (String key : KEYS) {
        int action = random.nextInt(5);
        if (action == 0) {
          object.remove(key);
        } else if (action == 1) {
          object.set(key, tree(random, depth + 1));
        } else if (action == 2 && object.has(key)) {
          object.set(key, mutate(object.get(key), random, depth + 1));
        }
      }
    } else if (node instanceof ArrayNode array) {
      if (!array.isEmpty() && random.nextBoolean()) {
        array.remove(random.nextInt(array.size()));
      }
      if (random.nextBoolean()) {
        array.insert(random.nextInt(array.size() + 1), tree(random, depth + 1));
      }
      for (int i = 0; i < array.size(); i++) {
        if (random.nextInt(3) == 0) {
          array.set(i, mutate(array.get(i), random, depth + 1));
        }
      }
    }
    return node;
  }
}
