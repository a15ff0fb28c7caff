package io.koord4j.api.device;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/** koord4j keeps allocations on pods, not here; whatever other agents write is kept as is. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@PreserveUnknownFields
public class DeviceStatus {}
