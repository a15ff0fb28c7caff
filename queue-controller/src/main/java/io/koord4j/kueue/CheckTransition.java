package io.koord4j.kueue;

import io.koord4j.api.kueue.AdmissionCheckState;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The next state of one of our check entries, from its current state and the gang's verdict.
 * Everything it needs is in the workload and the cluster, so the same inputs give the same state
 * after a restart.
 */
final class CheckTransition {
  /**
   * States this controller does not leave: Ready holds while the workload keeps its quota (its own
   * running pods would otherwise make it look infeasible); after Retry and Rejected Kueue acts and
   * resets the entry to Pending when it reserves quota again.
   */
  private static final Set<String> SETTLED =
      Set.of(AdmissionCheckState.READY, AdmissionCheckState.RETRY, AdmissionCheckState.REJECTED);

  private CheckTransition() {}

  static boolean isSettled(AdmissionCheckState current) {
    return SETTLED.contains(current.getState());
  }

  /** The entry to write, or the current one (without Kueue's fields) when it is settled. */
  static AdmissionCheckState next(
      AdmissionCheckState current, GangVerdict verdict, CheckSettings settings, Instant now) {
    if (isSettled(current)) {
      AdmissionCheckState same =
          entry(current.getName(), current.getState(), current.getMessage(), current.getLastTransitionTime());
      same.setPodSetUpdates(current.getPodSetUpdates());
      same.setRequeueAfterSeconds(current.getRequeueAfterSeconds());
      return same;
    }
    String state = verdict.state();
    String message = verdict.message();
    if (AdmissionCheckState.PENDING.equals(state) && !now.isBefore(retryAt(current, settings, now))) {
      state = AdmissionCheckState.RETRY;
      message = "no room after " + settings.waitBeforeRetry().toSeconds() + " s, retry in "
          + settings.requeueAfterSeconds() + " s; " + message;
    }
    Optional<Instant> since = lastTransition(current);
    String transitionTime = state.equals(current.getState()) && since.isPresent()
        ? current.getLastTransitionTime()
        : format(now);
    AdmissionCheckState next = entry(current.getName(), state, message, transitionTime);
    if (AdmissionCheckState.READY.equals(state)) {
      next.setPodSetUpdates(verdict.podSetUpdates());
    }
    if (AdmissionCheckState.RETRY.equals(state)) {
      next.setRequeueAfterSeconds(settings.requeueAfterSeconds());
    }
    return next;
  }

  /** When a Pending entry turns Retry: the wait counts from when it became Pending. */
  static Instant retryAt(AdmissionCheckState current, CheckSettings settings, Instant now) {
    Instant since = AdmissionCheckState.PENDING.equals(current.getState())
        ? lastTransition(current).orElse(now)
        : now;
    return since.plus(settings.waitBeforeRetry());
  }

  /** Whether writing {@code next} changes what Kueue and users see. */
  static boolean changes(AdmissionCheckState current, AdmissionCheckState next) {
    return !Objects.equals(current.getState(), next.getState())
        || !Objects.equals(current.getMessage(), next.getMessage())
        || !Objects.equals(current.getLastTransitionTime(), next.getLastTransitionTime());
  }

  static String format(Instant time) {
    return time.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static Optional<Instant> lastTransition(AdmissionCheckState current) {
    if (current.getLastTransitionTime() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(current.getLastTransitionTime()).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** A fresh entry holding only the fields this controller owns; Kueue's retryCount is left out. */
  private static AdmissionCheckState entry(String name, String state, String message, String transitionTime) {
    AdmissionCheckState entry = new AdmissionCheckState();
    entry.setName(name);
    entry.setState(state);
    entry.setMessage(message == null ? "" : message);
    entry.setLastTransitionTime(transitionTime);
    return entry;
  }
}
