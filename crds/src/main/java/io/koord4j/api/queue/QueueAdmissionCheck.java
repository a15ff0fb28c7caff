package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** A Kueue AdmissionCheck that the queue's units must pass; a null selector matches every unit. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueAdmissionCheck {
  private String name;
  private LabelSelector labelSelector;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public LabelSelector getLabelSelector() {
    return labelSelector;
  }

  public void setLabelSelector(LabelSelector labelSelector) {
    this.labelSelector = labelSelector;
  }
}
