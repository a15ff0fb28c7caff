package io.koord4j.api.slo;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Koordinator defines no NodeSLO status yet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodeSLOStatus {}
