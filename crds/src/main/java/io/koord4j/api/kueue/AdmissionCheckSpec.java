package io.koord4j.api.kueue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdmissionCheckSpec {
  /** Immutable; names the controller that runs the check. */
  private String controllerName;

  private Parameters parameters;

  public String getControllerName() {
    return controllerName;
  }

  public void setControllerName(String controllerName) {
    this.controllerName = controllerName;
  }

  public Parameters getParameters() {
    return parameters;
  }

  public void setParameters(Parameters parameters) {
    this.parameters = parameters;
  }

  /** A reference to a controller-specific object configuring the check. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Parameters {
    private String apiGroup;
    private String kind;
    private String name;

    public String getApiGroup() {
      return apiGroup;
    }

    public void setApiGroup(String apiGroup) {
      this.apiGroup = apiGroup;
    }

    public String getKind() {
      return kind;
    }

    public void setKind(String kind) {
      this.kind = kind;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }
  }
}
