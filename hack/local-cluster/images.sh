# Container images for the real node, built here without a daemon or a registry: the pod sandbox
# (Kubernetes' own pause program), a Java base from Debian packages, and koord4j's components from
# the Maven build. Sourced by cluster.sh; archives are cached in $IMAGES.

# The components built into images: <image name>:<module>:<jar name prefix>
COMPONENTS=(manager:queue-controller:koord4j-manager koord-scheduler:scheduler-plugins:koord4j-scheduler
  koordlet:koordlet:koord4j-koordlet yarn-copilot:yarn-copilot:koord4j-yarn-copilot)
JRE_BASE=localhost/koord4j/jre-base:17

buildah() {
  command -v buildah >/dev/null || die "buildah is required to build images (Debian package buildah)"
  command buildah --root "$CACHE/buildah/root" --runroot "$CACHE/buildah/run" "$@"
}

pause_source() { echo "$(module_dir "k8s.io/kubernetes@v$K8S_VERSION")/build/pause"; }
pause_tag() { sed -n 's/^TAG ?= //p' "$(pause_source)/Makefile"; }
pause_image() { echo "localhost/koord4j/pause:$(pause_tag)"; }
pause_archive() { echo "$IMAGES/pause-$(pause_tag).tar"; }

# The sandbox image the CRI asks for: Kubernetes' pause.c, compiled static, alone in the image.
build_pause_image() {
  [[ -f $(pause_archive) ]] && return 0
  log "building $(pause_image) from Kubernetes' pause source ..."
  local dir
  dir=$(mktemp -d)
  gcc -Os -Wall -Werror -static -DVERSION="v$(pause_tag)-koord4j" -o "$dir/pause" "$(pause_source)/linux/pause.c"
  printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' >"$dir/Dockerfile"
  build_image "$(pause_image)" "$dir" "$dir/Dockerfile"
  save_image "$(pause_image)" "$(pause_archive)"
  rm -rf "$dir"
}

# A Debian root file system with the Java 17 runtime, made by mmdebstrap from the host's suite.
build_jre_base() {
  local stamp=$IMAGES/.jre-base-17
  [[ -f $stamp ]] && buildah inspect "$JRE_BASE" >/dev/null 2>&1 && return 0
  command -v mmdebstrap >/dev/null || die "mmdebstrap is required to build the Java base image (Debian package mmdebstrap)"
  local suite dir start=$SECONDS
  suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
  log "building $JRE_BASE from Debian $suite packages (openjdk-17-jre-headless) ..."
  dir=$(mktemp -d)
  mmdebstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*' --format=tar "$suite" "$dir/rootfs.tar" </dev/null >&2
  printf 'FROM scratch\nADD rootfs.tar /\nCMD ["java", "-version"]\n' >"$dir/Dockerfile"
  build_image "$JRE_BASE" "$dir" "$dir/Dockerfile"
  rm -rf "$dir"
  touch "$stamp"
  log "built $JRE_BASE in $((SECONDS - start)) s"
}

# build_image <name> <context> <Dockerfile> [buildah bud flags...]; timestamps fixed, so equal
# inputs give equal images.
build_image() {
  local name=$1 context=$2 file=$3; shift 3
  mkdir -p "$IMAGES"
  buildah bud --quiet --pull-never --timestamp 0 --layers=false -f "$file" -t "$name" "$@" "$context" >/dev/null
}

save_image() { rm -f "$2"; buildah push --quiet "$1" "docker-archive:$2:$1" >/dev/null; }

# The jar-with-dependencies a module's Maven build left, if any.
component_jar() {
  local jars=("$REPO/$1"/target/"$2"-*-jar-with-dependencies.jar)
  if [[ -f ${jars[0]} ]]; then echo "${jars[0]}"; fi
}

# images load [--tag T]: builds koord4j's images from the jars of this checkout (tagged with their
# Maven version, and T if given) and imports them, with the sandbox image, into the real node. An
# image is rebuilt only when no archive of its jar's content exists.
cmd_images() {
  [[ ${1:-} == load ]] || die "usage: cluster.sh images load [--tag T]"
  local extra_tag=${IMAGE_TAG:-}
  [[ ${2:-} == --tag ]] && extra_tag=${3:?--tag needs a value}
  is_running containerd || die "the real node is not up; run: cluster.sh node up"
  build_jre_base
  local entry image module prefix jar version name archive loaded=()
  for entry in "${COMPONENTS[@]}"; do
    IFS=: read -r image module prefix <<<"$entry"
    jar=$(component_jar "$module" "$prefix")
    if [[ -z $jar ]]; then log "no jar in $module/target (run mvn package first): image $image skipped"; continue; fi
    version=${jar##*/$prefix-}; version=${version%-jar-with-dependencies.jar}
    name=docker.io/koord4j/$image:$version
    # Jars are reproducible, so an archive named by its jar's digest is this checkout's image.
    archive=$IMAGES/$image-$(sha256sum "$jar" | cut -c1-16).tar
    if [[ ! -f $archive ]]; then
      build_image "$name" "$REPO/$module/target" "$REPO/Dockerfile" --build-arg "BASE=$JRE_BASE" \
        --build-arg "JAR=${jar##*/}"
      save_image "$name" "$archive"
      # Keep the three newest archives of an image (other checkouts may use theirs).
      ls -t "$IMAGES/$image"-*.tar | tail -n +4 | xargs -r rm -f
    fi
    import_image "$archive"
    loaded+=("$name")
    if [[ -n $extra_tag ]]; then
      ctr images tag --force "$name" "${name%:*}:$extra_tag" >/dev/null
      loaded+=("${name%:*}:$extra_tag")
    fi
  done
  log "images loaded into $NODE_NAME: ${loaded[*]:-none}"
}
