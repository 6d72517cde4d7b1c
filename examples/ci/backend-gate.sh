#!/bin/sh
# The PR gate for an out-of-tree backend's registrations (a PrivateUse1
# backend, say): run at the root of the backend's repository.
#   backend-gate.sh FILE [BASE_REV]    (default HEAD: what the working tree changes)
# FILE is the backend's dispatchctl manifest (JSON, e.g. exported from its
# build with `dispatchctl export`) or its torchgen backend YAML (*.yaml, the
# format of gen_backend_stubs.py, read as torchgen-backend:). It is checked
# layered over PyTorch's registry as it is and as it was at BASE_REV (read with
# git show, no second checkout), and only what the change brings is reported:
# a kernel whose signature does not match the schema, an override, a key
# --require asks for, judged from the backend's side.
# Exit 0: nothing new at error severity; 1: the change brings an error; 2: bad input.
# Environment: DISPATCHCTL (binary, default dispatchctl), DISPATCHCTL_RELEASE
# (the PyTorch the backend builds against, default 2.14.1), DISPATCHCTL_FORMAT
# (text, github, markdown, json, sarif), DISPATCHCTL_CHECK_ARGS (e.g.
# "--require PrivateUse1").
set -eu
file=$1
base=${2:-HEAD}
release=${DISPATCHCTL_RELEASE:-2.14.1}
case "$file" in
  *.yaml | *.yml) form=torchgen-backend: ;;
  *) form= ;;
esac
# shellcheck disable=SC2086  # DISPATCHCTL_CHECK_ARGS is a list of words
exec "${DISPATCHCTL:-dispatchctl}" check "builtin:$release" "$form$file" \
  --base "builtin:$release" --base "${form}git:$base:$file" \
  --format "${DISPATCHCTL_FORMAT:-text}" ${DISPATCHCTL_CHECK_ARGS:-}
