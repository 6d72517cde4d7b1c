#!/bin/bash
# run.sh PAGE DISPATCHCTL ARGS... -- CHECK_PAGE_ARGS...
# Writes the page dispatchctl prints (report, or diff --format html, whose
# exit status 1 means "different"), then checks it in headless chromium.
set -u
page=$1 dctl=$2
shift 2
args=()
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
shift
mkdir -p "$(dirname "$page")"
"$dctl" "${args[@]}" > "$page"
status=$?
if [ "$status" -gt 1 ] || [ ! -s "$page" ]; then
  echo "FAIL: $dctl ${args[*]} exited $status" >&2
  exit 1
fi
exec /usr/bin/python3 "$(dirname "$0")/check_page.py" --page "$page" "$@"
