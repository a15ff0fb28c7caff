package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonFieldTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode object(String json) throws Exception {
    return JSON.readTree(json.replace('\'', '"'));
  }

  @Test
  void aFieldHoldsOnlyItsOwnValue() throws Exception {
    JsonField suspended = JsonField.of(true, "spec", "suspend");

    assertThat(suspended.holdsIn(object("{'spec':{'suspend':true}}"))).isTrue();
    assertThat(suspended.holdsIn(object("{'spec':{'suspend':false}}"))).isFalse();
    assertThat(suspended.holdsIn(object("{'spec':{'suspend':'true'}}"))).isFalse();
    assertThat(suspended.holdsIn(object("{'spec':{}}"))).isFalse();
    assertThat(suspended.holdsIn(object("{}"))).isFalse();
  }

  @Test
  void aFieldThatMustBeAbsentHoldsWhereItIsMissingOrNull() throws Exception {
    JsonField absent = JsonField.absent("metadata", "annotations", "scheduling.x-k8s.io/suspend");

    assertThat(absent.holdsIn(object("{'metadata':{}}"))).isTrue();
    assertThat(absent.holdsIn(object("{'metadata':{'annotations':{'scheduling.x-k8s.io/suspend':null}}}"))).isTrue();
    assertThat(absent.holdsIn(object("{'metadata':{'annotations':{'scheduling.x-k8s.io/suspend':'true'}}}")))
        .isFalse();
  }

  @Test
  void aKeyThatIsNoIdentifierIsNamedInBrackets() {
    assertThat(JsonField.of(true, "spec", "runPolicy", "suspend").fieldPath()).isEqualTo("spec.runPolicy.suspend");
    assertThat(JsonField.of("true", "metadata", "annotations", "scheduling.x-k8s.io/suspend").fieldPath())
        .isEqualTo("metadata.annotations[scheduling.x-k8s.io/suspend]");
  }
}
