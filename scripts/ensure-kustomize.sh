#!/usr/bin/env bash
# Makes sure kustomize (which renders k8s/ for the deployment tests) is built into .bin/kustomize.
#
# Built from source with Go: `go install` of the tagged module, and when the module proxy refuses the version list
# that `go install` may ask for, `go mod download` of the exact version and `go build` inside it (as
# ensure-ferretdb.sh does). A built binary is cached in $KASA_CACHE_DIR (default ~/.cache/kasa) for later clones.
set -euo pipefail

VERSION="${KUSTOMIZE_VERSION:-v5.7.1}"
MODULE="sigs.k8s.io/kustomize/kustomize/v5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="$ROOT/.bin/kustomize"
CACHE_DIR="${KASA_CACHE_DIR:-$HOME/.cache/kasa}"
CACHED="$CACHE_DIR/kustomize-$VERSION"

# `kustomize version` prints the module version it was built from, e.g. v5.7.1.
if [ -x "$TARGET" ] && [ "$("$TARGET" version 2>/dev/null || true)" = "$VERSION" ]; then
  exit 0
fi
# Copy then rename: the rename is atomic, and works even while another process runs the old binary.
install_binary() { cp "$1" "$TARGET.tmp.$$" && mv -f "$TARGET.tmp.$$" "$TARGET"; }
mkdir -p "$ROOT/.bin" "$CACHE_DIR"
if [ -x "$CACHED" ]; then
  install_binary "$CACHED"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "Go is not installed, so kustomize cannot be built (install Go, or put kustomize $VERSION at .bin/kustomize)." >&2
  exit 1
fi

echo "Building kustomize $VERSION (first run only; about a minute)..." >&2
WORK="$(mktemp -d)"
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
# GOTOOLCHAIN=local: build with the Go that is installed, never download another toolchain.
export CGO_ENABLED=0 GOTOOLCHAIN=local
if ! GOBIN="$WORK/bin" go install -trimpath "$MODULE@$VERSION"; then
  echo "go install failed; building from the downloaded module instead" >&2
  SRC="$(cd "$WORK" && GOFLAGS=-mod=mod go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [ -z "$SRC" ] || [ ! -d "$SRC" ]; then
    echo "Could not download $MODULE@$VERSION from the Go module proxy." >&2
    exit 1
  fi
  cp -r "$SRC" "$WORK/src"
  chmod -R u+w "$WORK/src"
  # Built as the main module, kustomize cannot read its own version: give it the release's, as its releases do.
  (cd "$WORK/src" && go build -trimpath -o "$WORK/bin/kustomize" \
    -ldflags "-X sigs.k8s.io/kustomize/api/provenance.version=kustomize/$VERSION" .)
fi
cp "$WORK/bin/kustomize" "$CACHED.tmp"
mv "$CACHED.tmp" "$CACHED"
install_binary "$CACHED"
echo "kustomize $VERSION is ready at .bin/kustomize" >&2
