package io.koord4j.scheduler.plugins.coscheduling;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a pod's gang: from a PodGroup named by the label {@code pod-group.scheduling.sigs.k8s.io}
 * (mode, waiting time and groups from the PodGroup's Koordinator annotations), or from the
 * Koordinator gang annotations on the pod itself. The label wins when both are present.
 */
public final class GangResolver {

  static final Duration DEFAULT_WAITING_TIME = Duration.ofSeconds(600);
  private static final String NON_STRICT = "NonStrict";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

  private final Function<String, PodGroup> podGroups;

  /** @param podGroups PodGroups by {@code namespace/name}; null when absent */
  public GangResolver(Function<String, PodGroup> podGroups) {
    this.podGroups = podGroups;
  }

  /** The gang id of a pod, read from its own metadata only: cheap, for indexing pods. */
  public static Optional<String> gangIdOf(Pod pod) {
    ObjectMeta meta = pod.getMetadata();
    String name = value(meta.getLabels(), WellKnown.POD_GROUP_LABEL);
    if (name == null) {
      name = value(meta.getAnnotations(), WellKnown.GANG_NAME);
    }
    return Optional.ofNullable(name).map(n -> meta.getNamespace() + "/" + n);
  }

  /**
   * The pod's gang, if it belongs to one.
   *
   * @throws IllegalArgumentException naming what is missing or malformed, for the pod's condition
   */
  public Optional<Gang> gangOf(Pod pod) {
    Optional<String> id = gangIdOf(pod);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    String podGroupName = value(pod.getMetadata().getLabels(), WellKnown.POD_GROUP_LABEL);
    return Optional.of(
        podGroupName != null ? fromPodGroup(id.get()) : fromAnnotations(id.get(), pod));
  }

  private Gang fromPodGroup(String id) {
    PodGroup podGroup = podGroups.apply(id);
    if (podGroup == null || podGroup.getSpec() == null) {
      throw new IllegalArgumentException("PodGroup " + id + " does not exist");
    }
    Map<String, String> annotations = podGroup.getMetadata().getAnnotations();
    Integer minMember = podGroup.getSpec().getMinMember();
    Integer timeout = podGroup.getSpec().getScheduleTimeoutSeconds();
    return new Gang(
        id,
        minMember == null ? 1 : minMember,
        !NON_STRICT.equals(value(annotations, WellKnown.GANG_MODE)),
        timeout != null
            ? Duration.ofSeconds(timeout)
            : waitingTime(value(annotations, WellKnown.GANG_WAITING_TIME)),
        group(id, value(annotations, WellKnown.GANG_GROUPS)));
  }

  private static Gang fromAnnotations(String id, Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String minAvailable = value(annotations, WellKnown.GANG_MIN_AVAILABLE);
    int minMember;
    try {
      minMember = minAvailable == null ? 1 : Integer.parseInt(minAvailable.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          WellKnown.GANG_MIN_AVAILABLE + " \"" + minAvailable + "\" is not a number");
    }
    return new Gang(
        id,
        minMember,
        !NON_STRICT.equals(value(annotations, WellKnown.GANG_MODE)),
        waitingTime(value(annotations, WellKnown.GANG_WAITING_TIME)),
        group(id, value(annotations, WellKnown.GANG_GROUPS)));
  }

  /** A Go duration such as {@code 90s}, {@code 1h30m}, or plain seconds; default 600 s. */
  static Duration waitingTime(String text) {
    if (text == null || text.isBlank()) {
      return DEFAULT_WAITING_TIME;
    }
    String s = text.strip();
    if (s.matches("\\d+")) {
      return Duration.ofSeconds(Long.parseLong(s));
    }
    if (!s.matches("(" + DURATION_PART.pattern() + ")+")) {
      throw new IllegalArgumentException(
          WellKnown.GANG_WAITING_TIME + " \"" + text + "\" is not a duration such as 600s");
    }
    Matcher parts = DURATION_PART.matcher(s);
    double millis = 0;
    while (parts.find()) {
      double amount = Double.parseDouble(parts.group(1));
      millis +=
          switch (parts.group(2)) {
            case "h" -> amount * 3_600_000;
            case "m" -> amount * 60_000;
            case "s" -> amount * 1000;
            default -> amount;
          };
    }
    return Duration.ofMillis(Math.round(millis));
  }

  /** The gang ids of a {@code groups} annotation, this gang always included, sorted. */
  private static List<String> group(String id, String json) {
    TreeSet<String> ids = new TreeSet<>();
    ids.add(id);
    if (json != null && !json.isBlank()) {
      try {
        ids.addAll(JSON.readValue(json, new TypeReference<List<String>>() {}));
      } catch (IOException e) {
        throw new IllegalArgumentException(
            WellKnown.GANG_GROUPS + " is not a JSON list of namespace/name: " + json);
      }
    }
    return List.copyOf(ids);
  }

  private static String value(Map<String, String> map, String key) {
    String value = map == null ? null : map.get(key);
    return value == null || value.isBlank() ? null : value;
  }
}
