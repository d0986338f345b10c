#!/usr/bin/env bash
# Makes sure the embedded MongoDB-wire server (FerretDB v1, SQLite backend) is built into .bin/ferretdb.
#
# `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.0` cannot be used as it is: the module proxy refuses the
# version list that `go install` asks for, and the published module lacks the build/version/version.txt that the
# binary embeds. So we download the exact module version, add that file, apply scripts/ferretdb-patches/*.patch
# (see the README there: they make the SQLite backend use its _id index) and `go build` it.
# A built binary is cached in $KASA_CACHE_DIR (default ~/.cache/kasa) so later clones on the same machine reuse it.
set -euo pipefail

VERSION="${FERRETDB_VERSION:-v1.24.0}"
# The build's name: the upstream version plus the revision of our patches. Bump it when a patch changes, so that a
# binary built from older patches (in .bin or the cache) is rebuilt.
PATCHES_REVISION=6
BUILD="$VERSION-kasa.$PATCHES_REVISION"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="$ROOT/.bin/ferretdb"
CACHE_DIR="${KASA_CACHE_DIR:-$HOME/.cache/kasa}"
CACHED="$CACHE_DIR/ferretdb-$BUILD"

# `--version` writes a state.json into the current folder, so it runs in the temporary folder.
# Read the whole output first: with pipefail, `grep -q` closing the pipe early would fail the check.
if [ -x "$TARGET" ] && [[ "$(cd "${TMPDIR:-/tmp}" && "$TARGET" --version 2>/dev/null || true)" == *"version: $BUILD"* ]]; then
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
  echo "Go is not installed, so FerretDB cannot be built. Set MONGO_URL to a MongoDB server instead." >&2
  exit 1
fi

echo "Building FerretDB $BUILD (first run only; this takes a few minutes)..." >&2
WORK="$(mktemp -d)"
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
SRC="$(cd "$WORK" && GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [ -z "$SRC" ] || [ ! -d "$SRC" ]; then
  echo "Could not download github.com/FerretDB/FerretDB@$VERSION from the Go module proxy." >&2
  exit 1
fi
cp -r "$SRC" "$WORK/src"
chmod -R u+w "$WORK/src"
echo "$BUILD" > "$WORK/src/build/version/version.txt"
for patch_file in "$ROOT"/scripts/ferretdb-patches/*.patch; do
  (cd "$WORK/src" && git apply "$patch_file")
done
# The tests our patches add run before the build: a binary whose patched parts fail them is never installed.
# FerretDB's test helpers look for the repository's .git folder, hence the empty one; upstream's own code does not
# pass every vet check that `go test` runs by default, hence -vet=off.
(cd "$WORK/src" && git init -q && CGO_ENABLED=0 go test -count=1 -vet=off \
  -run 'TestTrimHeap|TestDocumentLocks|TestIDKey' ./internal/backends/sqlite/metadata/pool/ ./internal/handler/ >&2)
(cd "$WORK/src" && CGO_ENABLED=0 go build -trimpath -o "$CACHED.tmp" ./cmd/ferretdb)
mv "$CACHED.tmp" "$CACHED"
install_binary "$CACHED"
echo "FerretDB $BUILD is ready at .bin/ferretdb" >&2
