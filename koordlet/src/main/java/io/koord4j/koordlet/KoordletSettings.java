package io.koord4j.koordlet;

import io.koord4j.koordlet.cgroup.CgroupDriver;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.probes.ListenAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How koordlet runs, from {@code --flag=value} arguments, else the environment. In a DaemonSet pod
 * the node name comes from the downward API and the host's /proc and cgroup mount are mounted at
 * the paths given here.
 *
 * @param nodeName {@code --node-name} / {@code NODE_NAME}: the node this agent serves (required)
 * @param cgroupRoot {@code --cgroup-root} / {@code KOORDLET_CGROUP_ROOT}: the host's cgroup mount,
 *     default {@code /sys/fs/cgroup}
 * @param procRoot {@code --proc-root} / {@code KOORDLET_PROC_ROOT}: the host's proc, default {@code /proc}
 * @param cgroupDriver {@code --cgroup-driver} / {@code KOORDLET_CGROUP_DRIVER}: the kubelet's,
 *     {@code cgroupfs} (default) or {@code systemd}
 * @param kubepods {@code --kubepods-cgroup} / {@code KOORDLET_KUBEPODS_CGROUP}: the kubelet's pods
 *     cgroup under the root, default {@code kubepods} or {@code kubepods.slice} by driver
 * @param collectInterval {@code --collect-interval-seconds}, default 1
 * @param qosInterval {@code --qos-interval-seconds}: CPU suppression, memory eviction and batch
 *     cgroup values, default 1
 * @param httpAddress {@code --http-address} / {@code KOORDLET_HTTP_ADDRESS}: the address of the HTTP
 *     port, e.g. the node's IP; default every address
 * @param httpPort {@code --http-port} / {@code KOORDLET_HTTP_PORT}: /healthz and /metrics, default 9316
 * @param gpuInventory {@code --gpu-inventory}: {@code none} (default), {@code nvidia-smi}, or
 *     {@code file:<path>} of a saved {@code nvidia-smi -q -x} output
 */
public record KoordletSettings(
    String nodeName,
    Path cgroupRoot,
    Path procRoot,
    CgroupDriver cgroupDriver,
    String kubepods,
    Duration collectInterval,
    Duration qosInterval,
    Optional<String> httpAddress,
    int httpPort,
    String gpuInventory) {

  public static KoordletSettings from(Map<String, String> env, String[] args) {
    Map<String, String> flags = flags(args);
    String nodeName = value(flags, env, "node-name", "NODE_NAME", null);
    if (nodeName == null || nodeName.isBlank()) {
      throw new IllegalArgumentException("--node-name (or NODE_NAME) is required: the node this koordlet serves");
    }
    CgroupDriver driver = CgroupDriver.parse(value(flags, env, "cgroup-driver", "KOORDLET_CGROUP_DRIVER", "cgroupfs"));
    return new KoordletSettings(
        nodeName,
        Path.of(value(flags, env, "cgroup-root", "KOORDLET_CGROUP_ROOT", "/sys/fs/cgroup")),
        Path.of(value(flags, env, "proc-root", "KOORDLET_PROC_ROOT", "/proc")),
        driver,
        value(flags, env, "kubepods-cgroup", "KOORDLET_KUBEPODS_CGROUP", CgroupLayout.defaultKubepods(driver)),
        seconds(flags, env, "collect-interval-seconds", "KOORDLET_COLLECT_INTERVAL_SECONDS", "1"),
        seconds(flags, env, "qos-interval-seconds", "KOORDLET_QOS_INTERVAL_SECONDS", "1"),
        ListenAddress.of(value(flags, env, "http-address", "KOORDLET_HTTP_ADDRESS", null)),
        positive(value(flags, env, "http-port", "KOORDLET_HTTP_PORT", "9316"), "--http-port", 0),
        value(flags, env, "gpu-inventory", "KOORDLET_GPU_INVENTORY", "none"));
  }

  private static Map<String, String> flags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument \"" + arg + "\": flags look like --name=value");
      }
      int equals = arg.indexOf('=');
      if (equals > 0) {
        flags.put(arg.substring(2, equals), arg.substring(equals + 1));
      } else if (i + 1 < args.length) {
        flags.put(arg.substring(2), args[++i]);
      } else {
        throw new IllegalArgumentException(arg + " needs a value");
      }
    }
    return flags;
  }

  private static String value(Map<String, String> flags, Map<String, String> env, String flag, String variable, String fallback) {
    return flags.getOrDefault(flag, env.getOrDefault(variable, fallback));
  }

  private static Duration seconds(Map<String, String> flags, Map<String, String> env, String flag, String variable, String fallback) {
    return Duration.ofSeconds(positive(value(flags, env, flag, variable, fallback), "--" + flag, 1));
  }

  private static int positive(String value, String flag, int min) {
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed >= min) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + " must be a whole number of at least " + min + ", not \"" + value + "\"");
  }
}
