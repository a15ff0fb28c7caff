package io.koord4j.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The CPU time that processes of this machine spent, summed per side of a benchmark over its
 * measured phases: what each side costs the machine, besides what its clients wait.
 */
final class CpuTimes {
  /** Each process's total CPU time at one moment. */
  record Reading(Map<String, Duration> byProcess) {}

  private final Map<String, Long> pids;
  private final Map<String, Map<String, Duration>> bySide = new LinkedHashMap<>();

  /** @param pids the processes to watch, by the name the report gives them */
  CpuTimes(Map<String, Long> pids) {
    this.pids = new TreeMap<>(pids);
  }

  Reading read() {
    Map<String, Duration> byProcess = new TreeMap<>();
    pids.forEach((name, pid) -> byProcess.put(name, cpuTime(name, pid)));
    return new Reading(byProcess);
  }

  /** Adds to {@code side} what each process spent since {@code before}. */
  void add(String side, Reading before) {
    Reading after = read();
    Map<String, Duration> spent = bySide.computeIfAbsent(side, s -> new TreeMap<>());
    after.byProcess().forEach(
        (name, total) -> spent.merge(name, total.minus(before.byProcess().get(name)), Duration::plus));
  }

  Set<String> processes() {
    return pids.keySet();
  }

  /** CPU time {@code process} spent in {@code side}'s phases. */
  Duration spent(String side, String process) {
    return bySide.getOrDefault(side, Map.of()).getOrDefault(process, Duration.ZERO);
  }

  private static Duration cpuTime(String name, long pid) {
    return ProcessHandle.of(pid)
        .flatMap(process -> process.info().totalCpuDuration())
        .orElseThrow(() -> new IllegalStateException(name + " (pid " + pid + ") is gone"));
  }
}
