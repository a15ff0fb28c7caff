package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * A set of identical pods, in Kueue's PodSet shape. Shared by koord-queue's QueueUnit and Kueue's
 * Workload.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSet {
  private String name;
  private Integer count;
  private Integer minCount;

  /** Stored as given: a full pod schema would make the CRD huge and prune newer pod fields. */
  @PreserveUnknownFields
  @SchemaFrom(type = Object.class)
  private PodTemplateSpec template;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Integer getCount() {
    return count;
  }

  public void setCount(Integer count) {
    this.count = count;
  }

  public Integer getMinCount() {
    return minCount;
  }

  public void setMinCount(Integer minCount) {
    this.minCount = minCount;
  }

  public PodTemplateSpec getTemplate() {
    return template;
  }

  public void setTemplate(PodTemplateSpec template) {
    this.template = template;
  }
}
