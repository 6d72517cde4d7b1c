#!/bin/bash
# Drives bash's programmable completion with the script `dispatchctl
# completion bash` prints, as readline would call it on TAB: the line split
# at COMP_WORDBREAKS, then the completion function, then COMPREPLY.
#   complete.sh DISPATCHCTL SOURCE_DIR
set -u
dctl=$(realpath "$1") src=$2
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$dctl" "$bin/dispatchctl"
export PATH="$bin:$PATH"
# bash-completion's helpers (_init_completion, __ltrim_colon_completions) as an interactive shell has them.
source /usr/share/bash-completion/bash_completion
source <(dispatchctl completion bash)
declare -f _dispatchctl >/dev/null || { echo "FAIL: the script does not define _dispatchctl"; exit 1; }
failures=0

# Readline's split: blanks separate words, and a run of ':' or '=' (both in
# COMP_WORDBREAKS) is a word of its own: "aten::ad" -> aten :: ad.
tab() {
  local line=$1 w="" i c
  COMP_WORDS=()
  for ((i = 0; i < ${#line}; i++)); do
    c=${line:i:1}
    if [[ $c == " " ]]; then
      [[ -n $w ]] && COMP_WORDS+=("$w")
      w=""
    elif [[ $c == [:=] ]]; then
      [[ -n $w && ${w: -1} != [:=] ]] && { COMP_WORDS+=("$w"); w=""; }
      w+=$c
    else
      [[ -n $w && ${w: -1} == [:=] ]] && { COMP_WORDS+=("$w"); w=""; }
      w+=$c
    fi
  done
  COMP_WORDS+=("$w")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line COMP_POINT=${#line}
  COMPREPLY=()
  _dispatchctl dispatchctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}

# expect LINE WORD...: every WORD is among the completions (what readline inserts after the last break).
expect() {
  local line=$1 word reply
  shift
  tab "$line"
  reply=" ${COMPREPLY[*]} "
  for word in "$@"; do
    if [[ $reply != *" $word "* ]]; then
      echo "FAIL: '$line<TAB>' does not offer '$word'; got:${reply:0:300}"
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok: '$line<TAB>' -> ${#COMPREPLY[@]} completions including $*"
}

# expect_only LINE WORD...: exactly these completions, in any order.
expect_only() {
  local line=$1 got want
  shift
  tab "$line"
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  if [[ $got != "$want" ]]; then
    echo "FAIL: '$line<TAB>' gives '$got', expected '$want'"
    failures=$((failures + 1))
  else
    echo "ok: '$line<TAB>' -> $got"
  fi
}

# Operator names: after "aten::" readline keeps the part past the last ':'.
expect "dispatchctl show aten::ad" add add.Tensor add.out add_.Tensor addmm
tab "dispatchctl show aten::ad"
for w in "${COMPREPLY[@]}"; do
  [[ $w == ad* ]] || { echo "FAIL: 'show aten::ad<TAB>' offers '$w'"; failures=$((failures + 1)); }
done
expect_only "dispatchctl show aten::add.Te" add.Tensor
# A flag takes no value: the word after it is an operator again.
expect "dispatchctl show --live aten::ad" add add.Tensor
expect_only "dispatchctl show --all-keys --format t" text torch-table torch-state
expect "dispatchctl explain --key Meta aten::lin" linear linear.out
expect "dispatchctl report --op aten::mm" mm mm.out
# Key names, the release of the -m in use.
expect_only "dispatchctl explain aten::add --key Met" Meta Metal
expect_only "dispatchctl report --key Met" Meta Metal
expect_only "dispatchctl report --key=Met" Meta Metal
expect_only "dispatchctl query --registered-at CompositeExplicitAutogradN" CompositeExplicitAutogradNonFunctional
expect_only "dispatchctl report -m builtin:1.13.1 --key AutogradNested" AutogradNestedTensor
expect "dispatchctl check --require AutogradP" AutogradPrivateUse1 AutogradPrivateUse2
# Only keys the option accepts (issue 24 item 14): explain --key and check
# --require take table rows and alias keys, not functionality keys such as
# AutogradFunctionality (explain --key AutogradFunctionality is exit 2);
# has-kernel --key takes any key; keys --alias only alias keys.
expect_only "dispatchctl explain --key AutogradFunc"
expect_only "dispatchctl check --require AutogradFunc"
expect_only "dispatchctl has-kernel aten::add.Tensor --key AutogradFunc" AutogradFunctionality
expect_only "dispatchctl keys --alias CompositeExplicitAutogradN" CompositeExplicitAutogradNonFunctional
expect_only "dispatchctl keys --alias CP"
expect_only "dispatchctl report --key Den"
# trace --tensor: the release's presets, then after ':' its modifiers.
expect "dispatchctl trace aten::add.Tensor --tensor m" meta mkldnn_cpu mps
expect_only "dispatchctl trace aten::add.Tensor --tensor cpu:co" conj
expect_only "dispatchctl trace aten::add.Tensor --tensor cpu:conj:requires" requires_grad
expect_only "dispatchctl trace aten::add.Tensor -m builtin:1.13.1 --tensor sparse_c" sparse_cpu sparse_csr_cpu
# -m's other forms besides files and builtin: registries.
expect_only "dispatchctl show -m pyth" python python: python?import=
expect_only "dispatchctl show -m torchgen" torchgen: torchgen-backend:
# Operators of a manifest layered with -m.
expect_only "dispatchctl show -m builtin:2.14.1 -m $src/examples/custom_op.json myops::sc" scale scale_
# Subcommands, flags and values from the CLI's own definitions.
expect_only "dispatchctl sh" show
expect "dispatchctl " show explain has-kernel query trace diff check keys import registries report completion
expect_only "dispatchctl import " torch-dump torchgen
expect_only "dispatchctl completion " bash zsh fish
expect_only "dispatchctl show --format " text json torch-table torch-state
expect_only "dispatchctl diff --format h" html
expect_only "dispatchctl report -f " html json markdown svg
expect "dispatchctl show --" --format --manifest --live --all-keys --help
expect_only "dispatchctl show -m builtin:2" 2.14.1 2.14.1+cuda 2.6.0+cuda
expect_only "dispatchctl show -m builtin:2.6" 2.6.0+cuda
expect_only "dispatchctl keys --torch-version " 2.14 2.6 1.13
tab "dispatchctl __co"
[[ ${#COMPREPLY[@]} -eq 0 ]] || { echo "FAIL: the hidden __complete is offered"; failures=$((failures + 1)); }
# A broken -m completes nothing and prints nothing.
err=$(dispatchctl __complete keys Met -m /nonexistent.json 2>&1)
[[ -z $err ]] || { echo "FAIL: __complete printed '$err'"; failures=$((failures + 1)); }

[[ $failures -eq 0 ]] && echo "OK" || { echo "$failures failure(s)"; exit 1; }
