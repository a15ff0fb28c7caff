package io.koord4j.scheduler.framework;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The outcome of one plugin at one extension point.
 *
 * @param plugin the plugin that decided, stamped by the framework
 * @param reasons short phrases for people, e.g. {@code Insufficient cpu}; a node's rejection
 *     reasons are counted across nodes in the failure message
 */
public record Status(Code code, String plugin, List<String> reasons) {

  public enum Code {
    SUCCESS,
    /** Rejected, but a cluster change may make the pod fit. */
    UNSCHEDULABLE,
    /** Rejected, and no other node choice or preemption helps; only a cluster change can. */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    /** Permit only: hold the pod until a plugin allows or rejects it. */
    WAIT,
    ERROR
  }

  public static final Status SUCCESS = new Status(Code.SUCCESS, null, List.of());

  public static Status unschedulable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE, null, List.of(reasons));
  }

  public static Status unresolvable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, null, List.of(reasons));
  }

  /**
   * The status {@code decide} gives to what {@code read} reads from a pod; unresolvable when the
   * pod cannot be read ({@link IllegalArgumentException} naming the field and the rule), since
   * no cluster change fixes the pod.
   */
  public static <T> Status ifReadable(Supplier<T> read, Function<T, Status> decide) {
    T value;
    try {
      value = read.get();
    } catch (IllegalArgumentException e) {
      return unresolvable(e.getMessage());
    }
    return decide.apply(value);
  }

  public static Status waiting() {
    return new Status(Code.WAIT, null, List.of());
  }

  public static Status error(String reason) {
    return new Status(Code.ERROR, null, List.of(reason));
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  public boolean isRejection() {
    return code == Code.UNSCHEDULABLE || code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
  }

  /** The same outcome attributed to {@code pluginName}. */
  public Status by(String pluginName) {
    return plugin == null ? new Status(code, pluginName, reasons) : this;
  }

  public String message() {
    return String.join(", ", reasons);
  }
}
