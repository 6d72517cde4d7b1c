#!/usr/bin/env bash
# deb.sh BUILD_DIR: builds the .deb packages with CPack and checks them: the
# files each holds, Depends computed from the binary's shared libraries (none
# for the default static-pie binary), and
# that apt would install them on this system (simulated: nothing is changed).
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$tmp" >/dev/null)
cli=$(ls "$tmp"/dispatchctl_*.deb) dev=$(ls "$tmp"/dispatchctl-dev_*.deb)
contents=$(dpkg-deb -c "$cli")
for f in ./usr/bin/dispatchctl ./usr/bin/dispatchctl-export ./usr/share/man/man1/dispatchctl.1 \
         ./usr/share/dispatchctl/schemas/show.schema.json; do
  grep -q " $f\$" <<<"$contents" || fail "$cli lacks $f"
done
grep -q " ./usr/lib/x86_64-linux-gnu/cmake/dispatchctl/dispatchctlConfig.cmake$\| ./usr/lib/cmake/dispatchctl/dispatchctlConfig.cmake$" \
  <<<"$(dpkg-deb -c "$dev")" || fail "$dev lacks the CMake package"
depends=$(dpkg-deb -f "$cli" Depends 2>/dev/null || true)
# A package for each shared library the binary needs, and none for what it links
# statically (DISPATCHCTL_STATIC_DEPS, the default: -static-pie, libc included,
# so no shared library and no Depends at all; the sanitizer builds are dynamic).
needed=$(readelf -d "$build/app/dispatchctl" | grep NEEDED || true)
if [[ -z $needed ]]; then
  readelf -l "$build/app/dispatchctl" | grep -q INTERP && fail "no NEEDED but an ELF interpreter"
  readelf -h "$build/app/dispatchctl" | grep -q 'DYN' || fail "the static binary is not position-independent"
fi
for pair in libc6:libc.so.6 libstdc++6:libstdc++.so.6 libfmt9:libfmt.so.9 zlib1g:libz.so.1 libspdlog1:libspdlog.so.1 \
            libyaml-cpp0.7:libyaml-cpp.so.0.7; do
  package=${pair%%:*} soname=${pair#*:}
  if grep -qF "[$soname]" <<<"$needed"; then
    grep -qF "$package" <<<"$depends" || fail "Depends lacks $package: $depends"
  else
    ! grep -qF "$package" <<<"$depends" || fail "Depends names $package, which the binary does not load: $depends"
  fi
done
# python3-dispatchctl, when the build has the module (-DDISPATCHCTL_PYTHON=ON): its files,
# and the issue's one-liner with the package's files alone on the path.
python=$(ls "$tmp"/python3-dispatchctl_*.deb 2>/dev/null || true)
if [[ -n $python ]]; then
  site=./usr/lib/python3/dist-packages/dispatchctl
  python_contents=$(dpkg-deb -c "$python")
  for f in __init__.py _dispatchctl.pyi py.typed pytest_plugin.py; do
    grep -q " $site/$f\$" <<<"$python_contents" || fail "$python lacks $site/$f"
  done
  grep -q " $site/_dispatchctl\.cpython-[^ ]*\.so\$" <<<"$python_contents" || fail "$python lacks the module"
  dpkg-deb -f "$python" Depends | grep -q python3 || fail "$python does not depend on python3"
  dpkg-deb -x "$python" "$tmp/python"
  row=$(cd "$tmp" && PYTHONPATH="$tmp/python/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
        "import dispatchctl; print(dispatchctl.load('builtin:2.14.1').table('aten::add.Tensor')['Meta'])")
  [[ $row == "<Row Meta: kernel>" ]] || fail "python3-dispatchctl's module printed: $row"
fi
apt-get install -s "$cli" "$dev" $python >"$tmp/apt.log" 2>&1 || fail "apt would refuse: $(tail -5 "$tmp/apt.log")"
grep -q '^Inst dispatchctl ' "$tmp/apt.log" || fail "apt would not install dispatchctl: $(tail -5 "$tmp/apt.log")"
echo "ok: $(basename "$cli") ($depends), $(basename "$dev")${python:+, $(basename "$python")}"
