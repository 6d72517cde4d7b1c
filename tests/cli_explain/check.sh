#!/bin/sh
# check.sh EXIT_CODE REGEX COMMAND...: runs COMMAND, passes when it exits with
# EXIT_CODE and a line of its stdout+stderr matches the extended REGEX.
expected=$1; regex=$2; shift 2
output=$("$@" 2>&1); code=$?
printf '%s\n' "$output" | head -40
if [ "$code" -ne "$expected" ]; then echo "check.sh: exit status $code, expected $expected"; exit 1; fi
if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then echo "check.sh: no line matches: $regex"; exit 1; fi
exit 0
