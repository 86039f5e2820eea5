#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# scripts/install-deps counts a dependency as present when its tool is on PATH, whatever installed
# it, installs only what is missing, and names what it could not install in one line.
# Here: a machine whose cmake is not a Debian package (dpkg knows of nothing) and whose package
# archive cannot be reached (apt-get fails).
# Usage: install_deps_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work/bin"
fake() { # name, body
    printf '#!/bin/sh\n%s\n' "$2" >"$work/bin/$1"
    chmod +x "$work/bin/$1"
}
fake dpkg-query 'exit 1'
fake apt-get "echo \"apt-get \$*\" >>$work/apt.log; exit 100"
fake cmake 'echo "cmake version 3.28.3"'
fail() {
    echo "FAIL: $*"
    [ -f "$work/out" ] && sed 's/^/  | /' "$work/out"
    [ -f "$work/apt.log" ] && sed 's/^/  apt: /' "$work/apt.log"
    exit 1
}

# Everything ./run needs is on PATH: nothing to install, apt-get is not asked.
PATH="$work/bin:$PATH" "$src/scripts/install-deps" >"$work/out" 2>&1 || fail "present tools"
[ ! -e "$work/apt.log" ] || fail "apt-get was called though every tool is present"

# A cmake older than 3.25: apt-get is tried, fails, and one line says what to do.
fake cmake 'echo "cmake version 3.18.4"'
if PATH="$work/bin:$PATH" "$src/scripts/install-deps" >"$work/out" 2>&1; then
    fail "an old cmake was accepted"
fi
[ "$(grep -c 'missing cmake' "$work/out")" -eq 1 ] || fail "no one-line message about cmake"
grep -q 'cmake >= 3.25 on PATH is required' "$work/out" || fail "message does not say what to do"

# No cmake at all on PATH (a PATH of the fakes, the compilers and make only).
rm "$work/bin/cmake"
for t in cc c++ make sh sed grep ls id; do
    p=$(command -v "$t") && ln -sf "$p" "$work/bin/$t"
done
if PATH="$work/bin" "$src/scripts/install-deps" >"$work/out" 2>&1; then
    fail "a missing cmake was accepted"
fi
grep -q 'missing cmake' "$work/out" || fail "no message about the missing cmake"
echo "install-deps: ok"
