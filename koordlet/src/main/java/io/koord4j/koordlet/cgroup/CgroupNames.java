package io.koord4j.koordlet.cgroup;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks every value that becomes part of a cgroup path; no I/O. Pod UIDs and container IDs come
 * from pod objects that koordlet does not write, and koordlet writes cgroups as root: a containerID
 * such as {@code containerd://../../x} must be refused, never joined.
 */
public final class CgroupNames {
  private CgroupNames() {}

  /** As the API server writes {@code metadata.uid}. */
  private static final Pattern POD_UID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  /** containerd, CRI-O and Docker report 64 hex digits; 12 is Docker's short form. */
  private static final Pattern CONTAINER_ID = Pattern.compile("([a-z][a-z0-9-]{0,31})://([0-9a-f]{12,64})");
  /** Enough of an untrusted value to recognise it, not enough to flood a log. */
  private static final int QUOTED_MAX = 80;

  /** A container's runtime ({@code containerd}, {@code cri-o}, {@code docker}) and its hex ID. */
  public record ContainerId(String runtime, String id) {}

  /** The pod UID, when it is a UUID. */
  public static String podUid(String uid) {
    if (uid == null || !POD_UID.matcher(uid).matches()) {
      throw new IllegalArgumentException("metadata.uid must be a UUID, not " + quoted(uid));
    }
    return uid;
  }

  /** A {@code status.containerStatuses[].containerID}, when it is {@code <runtime>://<hex id>}. */
  public static ContainerId containerId(String value) {
    Matcher parts = CONTAINER_ID.matcher(value == null ? "" : value);
    if (!parts.matches()) {
      throw new IllegalArgumentException(
          "containerID must be <runtime>://<12 to 64 hex digits>, not " + quoted(value));
    }
    return new ContainerId(parts.group(1), parts.group(2));
  }

  /** The kubelet's pods cgroup: a relative path (no leading "/") without empty, "." or ".." segments. */
  public static String kubepods(String kubepods) {
    boolean valid = kubepods.indexOf('\0') < 0;
    for (String segment : kubepods.split("/", -1)) {
      valid &= !segment.isEmpty() && !segment.equals(".") && !segment.equals("..");
    }
    if (!valid) {
      throw new IllegalArgumentException(
          "--kubepods-cgroup must be a path under the cgroup root such as kubepods or kubepods.slice, not "
              + quoted(kubepods));
    }
    return kubepods;
  }

  /**
   * A directory under a hierarchy root. The names joined into {@code relative} were checked when
   * it was built; this holds whatever a caller joins.
   */
  public static Path under(Path hierarchy, String relative) {
    Path base = hierarchy.toAbsolutePath().normalize();
    Path dir = base.resolve(relative).normalize();
    if (!dir.startsWith(base)) {
      throw new IllegalArgumentException("cgroup " + quoted(relative) + " is outside " + base);
    }
    return dir;
  }

  /** An untrusted value for a message: anything but printable ASCII escaped, long values cut short. */
  static String quoted(String value) {
    if (value == null) {
      return "nothing";
    }
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < Math.min(value.length(), QUOTED_MAX); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
    if (value.length() > QUOTED_MAX) {
      out.append("… (").append(value.length()).append(" characters)");
    }
    return out.toString();
  }
}
