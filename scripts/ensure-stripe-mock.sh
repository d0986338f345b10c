#!/usr/bin/env bash
# Makes sure stripe-mock (Stripe's official mock of its API, which the auth service's billing tests point the
# official SDK at) is built into .bin/stripe-mock.
#
# Built from source with Go: `go install` of the tagged module, and when the module proxy refuses the version list
# that `go install` may ask for, `go mod download` of the exact version and `go build` inside it (as
# ensure-kustomize.sh does). A built binary is cached in $KASA_CACHE_DIR (default ~/.cache/kasa) for later clones.
# stripe-mock embeds Stripe's OpenAPI document and fixtures of the version it was tagged with, so the version is pinned.
set -euo pipefail

VERSION="${STRIPE_MOCK_VERSION:-v0.203.0}"
MODULE="github.com/stripe/stripe-mock"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="$ROOT/.bin/stripe-mock"
CACHE_DIR="${KASA_CACHE_DIR:-$HOME/.cache/kasa}"
CACHED="$CACHE_DIR/stripe-mock-$VERSION"
# stripe-mock prints no version of its own, so the installed binary's version is kept beside it.
STAMP="$TARGET.version"

if [ -x "$TARGET" ] && [ "$(cat "$STAMP" 2>/dev/null || true)" = "$VERSION" ]; then
  exit 0
fi
# Copy then rename: the rename is atomic, and works even while another process runs the old binary.
install_binary() {
  cp "$1" "$TARGET.tmp.$$" && mv -f "$TARGET.tmp.$$" "$TARGET"
  echo "$VERSION" > "$STAMP.tmp.$$" && mv -f "$STAMP.tmp.$$" "$STAMP"
}
mkdir -p "$ROOT/.bin" "$CACHE_DIR"
if [ -x "$CACHED" ]; then
  install_binary "$CACHED"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "Go is not installed, so stripe-mock cannot be built (install Go, or put stripe-mock $VERSION at .bin/stripe-mock)." >&2
  exit 1
fi

echo "Building stripe-mock $VERSION (first run only; about a minute)..." >&2
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
  (cd "$WORK/src" && go build -trimpath -o "$WORK/bin/stripe-mock" .)
fi
cp "$WORK/bin/stripe-mock" "$CACHED.tmp"
mv "$CACHED.tmp" "$CACHED"
install_binary "$CACHED"
echo "stripe-mock $VERSION is ready at .bin/stripe-mock" >&2
