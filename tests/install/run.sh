#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR: installs dispatchctl into a scratch prefix and
# uses it as a user would: the installed binary answers, the man page renders
# with a section per subcommand, the completion script loads into bash (when
# the binary has `completion`), the exporter is on PATH, and a tiny C++
# project builds against the installed CMake package and gets PyTorch's row.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
bin=$prefix/bin/dispatchctl
want='AutogradCPU: registered at ./torch/csrc/autograd/generated/VariableType_2.cpp:[0-9]+ \[autograd kernel\]'
# Whole outputs go to files first: grep -q would close a pipe early and, with
# pipefail, turn dispatchctl's failed write into a spurious failure.
"$bin" show aten::add.Tensor --format torch-table >"$tmp/show.out" || fail "installed binary failed"
grep -Eq "^$want$" "$tmp/show.out" || fail "installed binary: no AutogradCPU row"
[ -x "$prefix/bin/dispatchctl-export" ] || fail "dispatchctl-export not installed"
[[ $(head -1 "$prefix/bin/dispatchctl-export") == '#!'*python3* ]] || fail "dispatchctl-export has no python3 shebang"
[ -f "$prefix/share/dispatchctl/schemas/show.schema.json" ] || fail "schemas not installed"

# The man page: one section per subcommand, and it renders without warnings.
page=$prefix/share/man/man1/dispatchctl.1
"$bin" --help >"$tmp/help.out"
for sub in $(sed -n '/^Subcommands:/,$p' "$tmp/help.out" | awk 'NR > 1 && /^  [a-z]/ {print $1}'); do
  grep -q "^\.SS \"dispatchctl $sub\"$" "$page" || fail "man page has no section for $sub"
done
rendered=$(MANWIDTH=100 man -l "$page" 2>"$tmp/man.err")
[ ! -s "$tmp/man.err" ] || fail "man reports: $(cat "$tmp/man.err")"
grep -q -- '--format' <<<"$rendered" || fail "rendered man page lacks --format"
# The environment that changes what dispatchctl does, and the cache it writes (issue 24).
for word in COLUMNS XDG_CACHE_HOME TMPDIR PYTHONPATH '\$XDG_CACHE_HOME/dispatchctl/'; do
  grep -q -- "$word" <<<"$rendered" || fail "rendered man page does not mention $word"
done

# Completions: installed exactly when the binary can print them.
completion=$prefix/share/bash-completion/completions/dispatchctl
if "$bin" completion bash >/dev/null 2>&1; then
  [ -s "$completion" ] || fail "binary has 'completion bash' but nothing was installed"
  for f in share/zsh/vendor-completions/_dispatchctl share/fish/vendor_completions.d/dispatchctl.fish; do
    [ -s "$prefix/$f" ] || fail "$f not installed"
  done
  bash -c "source '$completion' && complete -p dispatchctl" >/dev/null || fail "bash cannot load $completion"
else
  [ ! -e "$completion" ] || fail "a completion was installed but the binary has no 'completion bash'"
fi

# The Python module, when built (-DDISPATCHCTL_PYTHON=ON): the installed package answers.
site=$prefix/lib/python3/dist-packages
if [ -d "$site/dispatchctl" ]; then
  row=$(cd "$tmp" && PYTHONPATH=$site /usr/bin/python3 -c \
        "import dispatchctl; print(dispatchctl.load('builtin:2.14.1').table('aten::add.Tensor')['Meta'])")
  [[ $row == "<Row Meta: kernel>" ]] || fail "installed Python module printed: $row"
fi

# A consumer project: find_package(dispatchctl) -> dispatchctl::lib.
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_PREFIX_PATH="$prefix" ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer" > "$tmp/consumer.out"
grep -qx '3640 operators' "$tmp/consumer.out" || fail "consumer: wrong operator count: $(head -1 "$tmp/consumer.out")"
grep -Eq "^$want$" "$tmp/consumer.out" || fail "consumer: no AutogradCPU row"
echo "ok: installed into $prefix, ran the binary, read the man page, built a consumer"
