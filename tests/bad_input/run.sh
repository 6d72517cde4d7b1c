#!/usr/bin/env bash
# run.sh CASE DISPATCHCTL [BIG_SECONDS]: runs one bad-input case of cases.txt through the
# CLI and checks the contract: exit 2, exactly one stderr line
# "dispatchctl: error: …" matching the case's regex, nothing on stdout, no
# file left behind by `import -o`, no crash, done within 60 s. The big cases
# (200 MB manifest, gzip bombs, 100 000-deep nesting) are generated into a
# temp dir, deleted afterwards, and also checked for < BIG_SECONDS (default
# 30; the sanitizer build passes more: a speed limit is the Release build's)
# and < 2 GB peak RSS (GNU time). BAD_INPUT_KEEP_BIG=1 keeps nothing; it only prints numbers.
set -uo pipefail
name=$1 dctl=$2 big_seconds=${3:-30}
here=$(cd "$(dirname "$0")" && pwd)
inputs=$here/inputs
regex=$(awk -F'\t' -v n="$name" '$1 == n {print $2}' "$here/cases.txt")
[ -n "$regex" ] || { echo "unknown case $name"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
mkdir "$out"
import=(import torch-dump --torch-version 2.14.1 -o "$out/manifest.json")
limit_s=60 big=0

case "$name" in
  *.json|*.json.gz) cmd=(show '*' -m "$inputs/$name") ;;
  *.txt|*.txt.gz) cmd=("${import[@]}" "$inputs/$name") ;;
  missing_manifest) cmd=(show '*' -m /no/such/manifest.json) ;;
  missing_dump) cmd=("${import[@]}" /no/such/dump.txt) ;;
  directory_manifest) cmd=(show '*' -m "$inputs") ;;
  directory_dump) cmd=("${import[@]}" "$inputs") ;;
  mismatched_releases)
    cp "$inputs/good_manifest.json.in" "$tmp/good.json"
    cmd=(show '*' -m "$tmp/good.json" -m "$inputs/release_1_13.json") ;;
  mismatched_builtin_release) cmd=(show 'aten::sin' -m builtin:2.14.1 -m "$inputs/release_1_13.json") ;;
  import_unsupported_release)
    cmd=(import torch-dump "$inputs/good_dump.txt.in" --torch-version 9.9.9 -o "$out/manifest.json") ;;
  import_bad_fallbacks) cmd=("${import[@]}" "$inputs/good_dump.txt.in" --fallbacks "$inputs/fallbacks_wrong_type.json") ;;
  import_garbage_fallbacks) cmd=("${import[@]}" "$inputs/good_dump.txt.in" --fallbacks "$inputs/fallbacks_garbage.json") ;;
  import_output_is_directory)
    mkdir "$out/manifest.json"
    cmd=("${import[@]}" "$inputs/good_dump.txt.in") ;;
  deep_arrays_100000)
    { head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; } > "$tmp/deep.json"
    cmd=(show '*' -m "$tmp/deep.json") big=1 ;;
  deep_objects_100000)
    { for _ in $(seq 1000); do printf '{"a":%.0s' $(seq 100); done; echo 1;
      head -c 100000 /dev/zero | tr '\0' '}'; } > "$tmp/deep.json"
    cmd=(show '*' -m "$tmp/deep.json") big=1 ;;
  deep_arrays_in_fallbacks)
    head -c 100000 /dev/zero | tr '\0' '[' > "$tmp/deep.json"
    cmd=("${import[@]}" "$inputs/good_dump.txt.in" --fallbacks "$tmp/deep.json") big=1 ;;
  manifest_200mb)
    # ~200 MB of valid operators (20 000, each with a 10 kB debug text); the
    # last kernel's key is misspelt, so the whole file is parsed and loaded
    # before the error. (A 200 MB manifest of 1M tiny operators costs ~2 kB
    # of memory per operator today: see the report of issue 5.)
    python3 - "$tmp/big.json" <<'PY' || exit 1
import sys
n, pad = 20_000, "x" * 10_000
with open(sys.argv[1], "w") as f:
    f.write('{"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [\n')
    line = ('{"name": "big::op%d", "schema": "big::op%d(Tensor self) -> Tensor", "debug": "%s", '
            '"kernels": [{"key": "%s", "kernel": "registered at big.cpp:%d"}]},\n')
    f.writelines(line % (i, i, pad, "CPU", i) for i in range(n - 1))
    f.write((line % (n - 1, n - 1, pad, "Meat", n - 1)).rstrip(",\n") + "\n]}\n")
PY
    echo "generated $(stat -c %s "$tmp/big.json") bytes"
    cmd=(show '*' -m "$tmp/big.json") limit_s=120 big=1 ;;
  gzip_bomb_manifest|gzip_bomb_dump)
    # 600 MB of spaces/newlines in ~600 KB of gzip: over the 512 MiB cap.
    ext=json; [ "$name" = gzip_bomb_dump ] && ext=txt
    python3 -c "import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 31); b = b'\\n' * (1 << 20)
with open(sys.argv[1], 'wb') as f:
    f.writelines(c.compress(b) for _ in range(600)); f.write(c.flush())" "$tmp/bomb.$ext.gz" || exit 1
    echo "generated $(stat -c %s "$tmp/bomb.$ext.gz") bytes of gzip"
    if [ "$ext" = json ]; then cmd=(show '*' -m "$tmp/bomb.$ext.gz"); else cmd=("${import[@]}" "$tmp/bomb.$ext.gz"); fi
    big=1 ;;
  torchgen_*) cmd=(show 'aten::my_*' -m builtin:2.14.1 -m "torchgen:$inputs/$name") ;;
  *) echo "case $name has no command"; exit 2 ;;
esac

start=$(date +%s.%N)
timeout "$limit_s" /usr/bin/time -f '%e %M' -o "$tmp/time" "$dctl" "${cmd[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
read -r secs kb < <(tail -1 "$tmp/time" 2>/dev/null || echo "? ?")
echo "case $name: exit $code, ${secs}s, peak ${kb} KB: dispatchctl ${cmd[*]}"
cat "$tmp/stderr"
ok=1
fail() { echo "FAIL: $*"; ok=0; }
[ "$code" = 124 ] && fail "timed out after ${limit_s}s"
[ "$code" = 2 ] || fail "exit code $code, expected 2"
lines=$(wc -l <"$tmp/stderr")
[ "$lines" = 1 ] || fail "stderr has $lines lines, expected 1"
grep -q '^dispatchctl: error: ' "$tmp/stderr" || fail "stderr does not start with 'dispatchctl: error: '"
grep -Eq -- "$regex" "$tmp/stderr" || fail "stderr does not match: $regex"
[ -s "$tmp/stdout" ] && fail "something was written to stdout"
if [ "$name" = import_output_is_directory ]; then
  left=$(find "$out" -mindepth 1 ! -path "$out/manifest.json")
else
  left=$(find "$out" -mindepth 1)
fi
[ -z "$left" ] || fail "files left behind: $left"
if [ "$big" = 1 ]; then
  awk -v s="$secs" -v limit="$big_seconds" 'BEGIN{exit !(s < limit)}' || fail "took ${secs}s, limit ${big_seconds}s"
  [ "$kb" -lt 2000000 ] 2>/dev/null || fail "peak RSS ${kb} KB, limit 2 GB"
fi
[ "$ok" = 1 ]
