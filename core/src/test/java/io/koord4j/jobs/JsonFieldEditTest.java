package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonFieldEditTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
  }

  @Test
  void addsMissingParentsOnceAndTheFieldsUnderThem() throws Exception {
    ObjectNode job = object("{'metadata':{'name':'a'},'spec':{'parallelism':2}}");
    JsonNode original = job.deepCopy();

    ArrayNode patch =
        JsonFieldEdit.apply(
            job,
            List.of(
                JsonField.of(true, "spec", "suspend"),
                JsonField.of("true", "metadata", "annotations", "koord-queue/job-has-enqueued"),
                JsonField.of("q", "metadata", "annotations", "kueue.x-k8s.io/queue-name")));

    assertThat(job).isEqualTo(object(
        "{'metadata':{'name':'a','annotations':{'koord-queue/job-has-enqueued':'true',"
            + "'kueue.x-k8s.io/queue-name':'q'}},'spec':{'parallelism':2,'suspend':true}}"));
    assertThat(JsonPatch.apply(patch, original)).isEqualTo(job);
    assertThat(patch).hasSize(2);
    assertThat(patch.get(1)).isEqualTo(object(
        "{'op':'add','path':'/metadata/annotations','value':{"
            + "'koord-queue/job-has-enqueued':'true','kueue.x-k8s.io/queue-name':'q'}}"));
  }

  @Test
  void pathsEscapeSlashesInKeys() throws Exception {
    ObjectNode job = object("{'metadata':{'labels':{}}}");

    ArrayNode patch =
        JsonFieldEdit.apply(job, List.of(JsonField.of("q", "metadata", "labels", "kueue.x-k8s.io/queue-name")));

    assertThat(patch.get(0).get("path").asText()).isEqualTo("/metadata/labels/kueue.x-k8s.io~1queue-name");
  }

  @Test
  void aFieldThatHoldsItsValueCostsNoOperation() throws Exception {
    ObjectNode job = object("{'spec':{'suspend':true}}");

    assertThat(JsonFieldEdit.apply(job, List.of(JsonField.of(true, "spec", "suspend")))).isEmpty();
  }

  @Test
  void replacesAndRemovesExistingFields() throws Exception {
    ObjectNode app = object("{'metadata':{'annotations':{'x':'true'}},'spec':{'suspend':true}}");

    ArrayNode patch =
        JsonFieldEdit.apply(
            app,
            List.of(
                JsonField.of(false, "spec", "suspend"),
                JsonField.absent("metadata", "annotations", "x"),
                JsonField.absent("metadata", "labels", "y")));

    assertThat(patch).isEqualTo(JSON.readTree(
        "[{\"op\":\"replace\",\"path\":\"/spec/suspend\",\"value\":false},"
            + "{\"op\":\"remove\",\"path\":\"/metadata/annotations/x\"}]"));
    assertThat(app).isEqualTo(object("{'metadata':{'annotations':{}},'spec':{'suspend':false}}"));
  }

  @Test
  void aParentThatIsNotAnObjectIsNamed() throws Exception {
    ObjectNode job = object("{'spec':'none'}");

    assertThatThrownBy(() -> JsonFieldEdit.apply(job, List.of(JsonField.of(true, "spec", "suspend"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/spec must be an object, found STRING");
  }
}
