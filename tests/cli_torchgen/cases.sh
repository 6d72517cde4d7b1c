#!/usr/bin/env bash
# `cases.sh NAME DISPATCHCTL ROOT`: one whole-binary torchgen case.
set -uo pipefail
case_name=$1 dctl=$2 root=$3
yaml=$root/tests/data/torch-2.14.1/torchgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case "$case_name" in
  import_matches_layer)
    # The manifest `import torchgen` writes loads to the same tables as the YAML itself.
    "$dctl" import torchgen "$yaml" -o "$tmp/p.json" 2>/dev/null || exit 1
    "$dctl" show 'aten::*' --format torch-table -m "$tmp/p.json" > "$tmp/from_manifest"
    "$dctl" show 'aten::*' --format torch-table -m "torchgen:$yaml" > "$tmp/from_yaml"
    [ -s "$tmp/from_yaml" ] && cmp "$tmp/from_manifest" "$tmp/from_yaml" ;;
  import_failure_leaves_no_file)
    "$dctl" import torchgen "$root/tests/cli_torchgen/invalid/unknown_key.yaml" -o "$tmp/out.json" 2>"$tmp/err"
    code=$?
    cat "$tmp/err"
    [ "$code" = 2 ] && [ -z "$(ls "$tmp" | grep out.json)" ] && grep -q "unknown_key.yaml:4: unknown dispatch key" "$tmp/err" ;;
  check_refusal_github)
    # torchgen's own refusal, at the YAML line, as a GitHub annotation; exit 1.
    out=$("$dctl" check "torchgen:$root/tests/cli_torchgen/invalid/refused.yaml" --format github)
    code=$?
    echo "$out"
    [ "$code" = 1 ] && echo "$out" | grep -q "^::error file=.*refused.yaml,line=1,title=torchgen-refusal::my_op is marked as a structured_delegate pointing to my_op.out, but my_op.out is missing.$" ;;
  check_require_meta)
    # The dispatch-level rules run on the predictions, pointing at the YAML.
    out=$("$dctl" check "torchgen:$root/tests/cli_torchgen/invalid/refused.yaml" --require Meta)
    code=$?
    echo "$out"
    [ "$code" = 1 ] && echo "$out" | grep -q "refused.yaml:4: error: aten::my_new_op has no kernel for required key Meta" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
