#!/usr/bin/env bash
# expect.sh EXIT_CODE STDERR_REGEX -- COMMAND...: runs COMMAND, checks its exit
# code, that stderr is exactly one line matching STDERR_REGEX (or empty when
# the regex is ''), and that nothing crashed.
set -u
want_code=$1 want_err=$2
shift 3
err=$(mktemp)
"$@" >/dev/null 2>"$err"
code=$?
lines=$(wc -l <"$err")
ok=1
[ "$code" = "$want_code" ] || { echo "exit code $code, expected $want_code"; ok=0; }
if [ -z "$want_err" ]; then
  [ "$lines" = 0 ] || { echo "unexpected stderr"; ok=0; }
else
  [ "$lines" = 1 ] || { echo "stderr has $lines lines, expected 1"; ok=0; }
  grep -Eq -- "$want_err" "$err" || { echo "stderr does not match: $want_err"; ok=0; }
fi
cat "$err"
rm -f "$err"
[ "$ok" = 1 ]
