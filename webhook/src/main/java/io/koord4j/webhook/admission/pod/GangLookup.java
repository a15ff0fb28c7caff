package io.koord4j.webhook.admission.pod;

import java.util.OptionalInt;

/**
 * The gangs koord4j has formed: the manager creates a job's PodGroup when it admits the job, just
 * before resuming it. Called on every gang pod's creation, so it must answer quickly.
 */
@FunctionalInterface
public interface GangLookup {
  /** The PodGroup's minMember, or empty when there is no such PodGroup (yet). */
  OptionalInt minMember(String namespace, String podGroup);
}
