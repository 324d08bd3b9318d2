#!/usr/bin/env bash
# Builds triboard for the browser into web/dist/ (index.html, triboard.js, triboard_bg.wasm).
#
#   web/build.sh                 # the shipped build: profile wasm-release, then wasm-bindgen and wasm-opt
#   NO_WASM_OPT=1 web/build.sh   # skip wasm-opt (a larger file, 8 minutes sooner)
#   web/build.sh --test          # the browser test's build (CI): profile wasm-test (no LTO, Bevy at
#                                # opt-level 1, the rules and search at 3), no wasm-opt; a bigger,
#                                # slower file built in a fraction of the time
#   PROFILE=name web/build.sh    # any other Cargo profile (wasm-opt only for wasm-release)
#
# CARGO_TARGET_DIR is honoured (the wasm32 and profile directories do not collide with native builds).
#
# Serve it:  python3 -m http.server 8000 --bind 127.0.0.1 --directory web/dist   → http://127.0.0.1:8000/
#
# What it needs, found or installed on first use (only the Rust toolchain is assumed):
#  - the wasm32-unknown-unknown target (rustup target add);
#  - wasm-bindgen-cli of exactly the version of `wasm-bindgen` in Cargo.lock: on PATH, in
#    $WASM_TOOLS_ROOT/bin (../shared/tools/wasm-toolchain.sh puts it in /opt/wasm-tools/bin), or
#    installed by cargo into web/.tools/;
#  - wasm-opt from npm's binaryen (Debian's binaryen 108 breaks wasm-bindgen's output at run time):
#    $WASM_TOOLS_ROOT/npm, or installed by npm into web/.tools/npm; without npm the step is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=wasm32-unknown-unknown
tools=$root/web/.tools
WASM_TOOLS_ROOT=${WASM_TOOLS_ROOT:-/opt/wasm-tools}
binaryen_version=132.0.0
step() { printf '\n== %s\n' "$*" >&2; }

profile=${PROFILE:-wasm-release}
for arg in "$@"; do
  case $arg in
    --test) profile=wasm-test ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "web/build.sh: unknown argument '$arg' (--test, or PROFILE=name)" >&2; exit 2 ;;
  esac
done
# wasm-opt -Oz is for the shipped build only.
[ "$profile" = wasm-release ] || NO_WASM_OPT=1

step "Rust target $target"
if ! rustc --print sysroot >/dev/null || [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target" ]; then
  rustup target add "$target"
fi

step "wasm-bindgen (the version in Cargo.lock)"
start=$(date +%s)
version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
bindgen=""
for candidate in "$(command -v wasm-bindgen || true)" "$WASM_TOOLS_ROOT/bin/wasm-bindgen" "$tools/bin/wasm-bindgen"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && [ "$("$candidate" --version 2>/dev/null)" = "wasm-bindgen $version" ]; then
    bindgen=$candidate; break
  fi
done
if [ -z "$bindgen" ]; then
  # --locked can fail when the registry lacks a locked dependency's version; then resolve afresh.
  cargo install --locked wasm-bindgen-cli --version "=$version" --root "$tools" \
    || cargo install --force wasm-bindgen-cli --version "=$version" --root "$tools"
  bindgen=$tools/bin/wasm-bindgen
fi
echo "$bindgen: $("$bindgen" --version) ($(( $(date +%s) - start )) s)" >&2

step "cargo build --profile $profile --target $target"
start=$(date +%s)
if [ "$profile" = wasm-release ]; then
  # The binary crate is where fat LTO optimises the whole program, and at the opt-level of the
  # binary: Cargo.toml's opt-level 3 for this package (kept for the library: the rules and the
  # search) would re-optimise all of Bevy for speed. The binary alone at "z": 13 % less code.
  cargo rustc --profile "$profile" --target "$target" --bin triboard -- -C opt-level=z
else
  cargo build --profile "$profile" --target "$target" --bin triboard
fi
echo "built in $(( $(date +%s) - start )) s" >&2
wasm=${CARGO_TARGET_DIR:-$root/target}/$target/$profile/triboard.wasm

step "wasm-bindgen --target web"
rm -rf web/dist
mkdir -p web/dist
"$bindgen" --target web --no-typescript --out-dir web/dist "$wasm"
cp web/index.html web/dist/

if [ -z "${NO_WASM_OPT:-}" ]; then
  step "wasm-opt -Oz (npm binaryen $binaryen_version)"
  opt=""
  for candidate in "$WASM_TOOLS_ROOT/npm/node_modules/.bin/wasm-opt" "$tools/npm/node_modules/.bin/wasm-opt"; do
    if [ -x "$candidate" ]; then opt=$candidate; break; fi
  done
  if [ -z "$opt" ] && command -v npm >/dev/null; then
    mkdir -p "$tools/npm"
    (cd "$tools/npm" && npm install --no-audit --no-fund --silent "binaryen@$binaryen_version")
    opt=$tools/npm/node_modules/.bin/wasm-opt
  fi
  if [ -n "$opt" ]; then
    start=$(date +%s)
    "$opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      -o web/dist/triboard_bg.wasm.tmp web/dist/triboard_bg.wasm
    mv web/dist/triboard_bg.wasm.tmp web/dist/triboard_bg.wasm
    echo "optimised in $(( $(date +%s) - start )) s" >&2
  else
    echo "no npm: wasm-opt skipped" >&2
  fi
fi

step "web/dist"
raw=$(stat -c %s web/dist/triboard_bg.wasm)
gz=$(gzip -9 -c web/dist/triboard_bg.wasm | wc -c)
echo "triboard_bg.wasm ($profile): $raw bytes ($(( raw / 1048576 )) MiB), gzipped $gz bytes ($(( gz / 1048576 )) MiB)"
ls -l web/dist
