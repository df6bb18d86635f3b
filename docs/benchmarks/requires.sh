# Sourced by the benchmark scripts, with $here the repository's root: `requires SCRIPT PACKAGES TOOL...` stops the
# script (exit 2), naming each missing tool and how to install it, unless every TOOL is on the PATH and the packaged
# jar exists.
requires() {
  local script="$1" packages="$2" missing=0 tool
  shift 2
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$script: $tool is not on the PATH (Debian/Ubuntu: apt-get install $packages)" >&2
      missing=1
    fi
  done
  if [ ! -f "$here/bootstrap/cli/target/baton.jar" ]; then
    echo "$script: $here/bootstrap/cli/target/baton.jar is missing; build it first:" >&2
    echo "  (cd \"$here\" && ./mvnw -B -q -pl bootstrap/cli -am package -DskipTests)" >&2
    missing=1
  fi
  [ "$missing" = 0 ] || exit 2
}
