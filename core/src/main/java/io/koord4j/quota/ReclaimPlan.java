package io.koord4j.quota;

import java.util.List;

/**
 * Units to preempt so that a lender's request fits again.
 *
 * @param victims in preemption order; empty when preempting cannot make the request fit
 * @param outcome the admission check once the victims are gone: admissible, or what still blocks
 */
public record ReclaimPlan(List<AdmittedUnit> victims, AdmissionResult outcome) {

  public ReclaimPlan {
    victims = List.copyOf(victims);
  }

  public boolean lenderFits() {
    return outcome.admissible();
  }
}
