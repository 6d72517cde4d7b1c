#!/bin/sh
# The PR gate for PyTorch's torchgen YAML: run in a PyTorch checkout.
#   torchgen-gate.sh [BASE_REV]    (default HEAD: what the working tree changes)
# Checks native_functions.yaml / tags.yaml / derivatives.yaml as they are
# against BASE_REV's (read with git show, no second checkout) and reports only
# what the change brings: torchgen's refusals, costly edits, --require keys.
# Exit 0: nothing new at error severity; 1: the change brings an error; 2: bad input.
# Environment: DISPATCHCTL (binary, default dispatchctl), DISPATCHCTL_RELEASE
# (default 2.14.1), DISPATCHCTL_FORMAT (text, github, markdown, json, sarif),
# DISPATCHCTL_CHECK_ARGS (e.g. "--require Meta").
set -eu
base=${1:-HEAD}
release=${DISPATCHCTL_RELEASE:-2.14.1}
# shellcheck disable=SC2086  # DISPATCHCTL_CHECK_ARGS is a list of words
exec "${DISPATCHCTL:-dispatchctl}" check "builtin:$release" torchgen:. \
  --base "builtin:$release" --base "torchgen:git:$base" \
  --format "${DISPATCHCTL_FORMAT:-text}" ${DISPATCHCTL_CHECK_ARGS:-}
