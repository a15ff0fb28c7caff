package io.koord4j.api.quota;

/** Empty, as Koordinator's: what the profile yields is the root quota itself. */
public class ElasticQuotaProfileStatus {}
