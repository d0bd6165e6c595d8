#!/usr/bin/env bash
# Rebuilds the API baseline jar of a released API version from its commit, byte for byte:
#   api/baseline/build-baseline.sh 1.1.0 4d23efa
# writes api/baseline/schedlab-api-1.1.0.jar (fixed jar timestamps; same JDK, same bytes) and its
# line in SHA256SUMS. japicmp (api/pom.xml) compares the API module against this jar. Offline once
# the local Maven repository holds the build plugins (after any build of this repository).
set -euo pipefail
version=${1:?usage: build-baseline.sh API_VERSION COMMIT}
commit=${2:?usage: build-baseline.sh API_VERSION COMMIT}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$repo" archive "$commit" pom.xml api | tar -x -C "$work"
declared=$(sed -n 's:.*<schedlab.api.version>\(.*\)</schedlab.api.version>.*:\1:p' "$work/pom.xml")
if [ "$declared" != "$version" ]; then
  echo "build-baseline.sh: commit $commit declares API $declared, not $version" >&2
  exit 2
fi
repo_opt=()
[ -n "${MAVEN_REPO_LOCAL:-}" ] && repo_opt=(-Dmaven.repo.local="$MAVEN_REPO_LOCAL")
mvn -B -ntp -q "${repo_opt[@]}" -f "$work/pom.xml" -N install
mvn -B -ntp -q "${repo_opt[@]}" -f "$work/api/pom.xml" -DskipTests \
  -Dproject.build.outputTimestamp=2025-01-01T00:00:00Z -Djapicmp.skip=true package
cp "$work"/api/target/schedlab-api-*.jar "$here/schedlab-api-$version.jar"
( cd "$here" && { grep -v " schedlab-api-$version.jar\$" SHA256SUMS 2>/dev/null || true;
    sha256sum "schedlab-api-$version.jar"; } | sort -k2 > SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS )
echo "wrote $here/schedlab-api-$version.jar"
