#!/usr/bin/env bash
# Regenerates the CRDs from the model classes and copies them to the two committed places:
# crds/manifests/ (plain kubectl apply) and helm/koord4j/crds/ (installed by Helm).
# Run it after changing a model class; GeneratedCrdsTest fails until you do.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mvn -B -q ${MVN_OFFLINE:--o} -pl crds process-classes
generated="crds/target/classes/META-INF/fabric8"
for target in crds/manifests helm/koord4j/crds; do
  mkdir -p "$target"
  rm -f "$target"/*-v1.yml
  cp "$generated"/*-v1.yml "$target"/
done
echo "CRDs refreshed in crds/manifests and helm/koord4j/crds"
