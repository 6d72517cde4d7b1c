#!/usr/bin/env bash
# Whole-binary checks for the core commands; `cases.sh NAME DISPATCHCTL ROOT`
# runs one case (tests.cmake registers each as a ctest test).
set -uo pipefail
case_name=$1 dctl=$2 root=$3
data=$root/tests/data builtin=$root/lib/builtin/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case "$case_name" in
  all_tables_2.14.1|all_tables_1.13.1)
    v=${case_name#all_tables_}
    "$dctl" show '*' --format torch-table -m "builtin:$v" | cmp - <(zcat "$data/torch-$v/computed_tables.txt.gz") ;;
  all_states_2.14.1|all_states_1.13.1)
    v=${case_name#all_states_}
    "$dctl" show '*' --format torch-state -m "builtin:$v" | cmp - <(zcat "$builtin/torch-$v/registry_state.txt.gz") ;;
  import_round_trip_2.14.1|import_round_trip_1.13.1)
    v=${case_name#import_round_trip_}
    "$dctl" import torch-dump "$builtin/torch-$v/registry_state.txt.gz" --fallbacks "$builtin/torch-$v/fallbacks.json" \
      --torch-version "$v" -o "$tmp/m.json" 2>/dev/null || exit 1
    "$dctl" show '*' --format torch-table -m "$tmp/m.json" | cmp - <(zcat "$data/torch-$v/computed_tables.txt.gz") ;;
  import_single_pasted_block)
    zcat "$builtin/torch-2.14.1/registry_state.txt.gz" |
      awk '/^=== aten::add.Tensor$/{f=1;next} /^=== /{f=0} f' > "$tmp/block.txt"
    "$dctl" import torch-dump "$tmp/block.txt" --torch-version 2.14.1 -o "$tmp/m.json" 2>/dev/null || exit 1
    "$dctl" show aten::add.Tensor --format torch-state -m "$tmp/m.json" | cmp - "$tmp/block.txt" ;;
  import_failure_leaves_no_file)
    printf 'name: x::y\nschema: x::y() -> ()\ndebug: d\nalias analysis kind: FROM_SCHEMA\nMeat: k :: (none) [ boxed ]\n' > "$tmp/s.txt"
    "$dctl" import torch-dump "$tmp/s.txt" --torch-version 2.14.1 -o "$tmp/out.json" 2>"$tmp/err"
    code=$?
    cat "$tmp/err"
    [ "$code" = 2 ] && [ -z "$(ls "$tmp" | grep out.json)" ] && grep -q "s.txt:5: 'Meat' is not a dispatch key of PyTorch 2.14; did you mean 'Meta'?" "$tmp/err" ;;
  no_color_when_piped)
    ! "$dctl" show aten::add | grep -q $'\x1b' ;;
  keys_alias_json)
    n=$("$dctl" keys --torch-version 1.13 --alias CompositeExplicitAutograd --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
    [ "$n" = 50 ] ;;
  text_fits_80_columns)
    # Piped text wraps to 80 columns at word boundaries (COLUMNS unset); machine formats never wrap.
    unset COLUMNS
    for args in "trace aten::add.Tensor --tensor cpu:conj --tensor cpu --tls-include Functionalize" \
                "trace aten::add.Tensor --tensor meta --tensor meta -m builtin:1.13.1" \
                "show aten::_fused_moving_avg_obs_fq_helper_functional aten::linalg_lstsq" \
                "explain --key Meta" "keys"; do
      long=$("$dctl" $args | awk 'length($0) > 80' | head -3)
      [ -z "$long" ] || { echo "$args: lines over 80 columns:"; echo "$long"; exit 1; }
    done
    [ "$("$dctl" show aten::add.Tensor --format torch-table | awk 'length($0) > 80' | wc -l)" -gt 0 ] ;;
  columns_env_width)
    long=$(COLUMNS=60 "$dctl" trace aten::add.Tensor --tensor cpu:requires_grad --tensor cpu | awk 'length($0) > 60')
    [ -z "$long" ] || { echo "$long"; exit 1; }
    COLUMNS=200 "$dctl" trace aten::add.Tensor --tensor cpu:requires_grad --tensor cpu | grep -q '^  1\. AutogradCPU: .*VariableType_2.cpp:[0-9]* \[autograd kernel\]$' ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
