package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * When BE pods are held back: their CPU is suppressed above {@code cpuSuppressThresholdPercent}
 * (default 65) of node CPU, and they are evicted when node memory use reaches {@code
 * memoryEvictThresholdPercent} (default 70) until it drops under {@code memoryEvictLowerPercent}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceThresholdStrategy {
  public static final String SUPPRESS_BY_CFS_QUOTA = "cfsQuota";
  public static final String SUPPRESS_BY_CPUSET = "cpuset";

  private Boolean enable;

  @Min(0)
  @Max(100)
  private Long cpuSuppressThresholdPercent;

  @Min(0)
  @Max(100)
  private Long cpuSuppressMinPercent;

  private String cpuSuppressPolicy;

  @Min(0)
  @Max(100)
  private Long memoryEvictThresholdPercent;

  @Min(0)
  @Max(100)
  private Long memoryEvictLowerPercent;

  @Min(0)
  @Max(100)
  private Long cpuEvictBESatisfactionUpperPercent;

  @Min(0)
  @Max(100)
  private Long cpuEvictBESatisfactionLowerPercent;

  @Min(0)
  @Max(100)
  private Long cpuEvictBEUsageThresholdPercent;

  private Long cpuEvictTimeWindowSeconds;
  private String cpuEvictPolicy;

  public Boolean getEnable() {
    return enable;
  }

  public void setEnable(Boolean enable) {
    this.enable = enable;
  }

  public Long getCpuSuppressThresholdPercent() {
    return cpuSuppressThresholdPercent;
  }

  public void setCpuSuppressThresholdPercent(Long cpuSuppressThresholdPercent) {
    this.cpuSuppressThresholdPercent = cpuSuppressThresholdPercent;
  }

  public Long getCpuSuppressMinPercent() {
    return cpuSuppressMinPercent;
  }

  public void setCpuSuppressMinPercent(Long cpuSuppressMinPercent) {
    this.cpuSuppressMinPercent = cpuSuppressMinPercent;
  }

  public String getCpuSuppressPolicy() {
    return cpuSuppressPolicy;
  }

  public void setCpuSuppressPolicy(String cpuSuppressPolicy) {
    this.cpuSuppressPolicy = cpuSuppressPolicy;
  }

  public Long getMemoryEvictThresholdPercent() {
    return memoryEvictThresholdPercent;
  }

  public void setMemoryEvictThresholdPercent(Long memoryEvictThresholdPercent) {
    this.memoryEvictThresholdPercent = memoryEvictThresholdPercent;
  }

  public Long getMemoryEvictLowerPercent() {
    return memoryEvictLowerPercent;
  }

  public void setMemoryEvictLowerPercent(Long memoryEvictLowerPercent) {
    this.memoryEvictLowerPercent = memoryEvictLowerPercent;
  }

  public Long getCpuEvictBESatisfactionUpperPercent() {
    return cpuEvictBESatisfactionUpperPercent;
  }

  public void setCpuEvictBESatisfactionUpperPercent(Long cpuEvictBESatisfactionUpperPercent) {
    this.cpuEvictBESatisfactionUpperPercent = cpuEvictBESatisfactionUpperPercent;
  }

  public Long getCpuEvictBESatisfactionLowerPercent() {
    return cpuEvictBESatisfactionLowerPercent;
  }

  public void setCpuEvictBESatisfactionLowerPercent(Long cpuEvictBESatisfactionLowerPercent) {
    this.cpuEvictBESatisfactionLowerPercent = cpuEvictBESatisfactionLowerPercent;
  }

  public Long getCpuEvictBEUsageThresholdPercent() {
    return cpuEvictBEUsageThresholdPercent;
  }

  public void setCpuEvictBEUsageThresholdPercent(Long cpuEvictBEUsageThresholdPercent) {
    this.cpuEvictBEUsageThresholdPercent = cpuEvictBEUsageThresholdPercent;
  }

  public Long getCpuEvictTimeWindowSeconds() {
    return cpuEvictTimeWindowSeconds;
  }

  public void setCpuEvictTimeWindowSeconds(Long cpuEvictTimeWindowSeconds) {
    this.cpuEvictTimeWindowSeconds = cpuEvictTimeWindowSeconds;
  }

  public String getCpuEvictPolicy() {
    return cpuEvictPolicy;
  }

  public void setCpuEvictPolicy(String cpuEvictPolicy) {
    this.cpuEvictPolicy = cpuEvictPolicy;
  }
}
