# SPDX-License-Identifier: BSD-3-Clause
"""Test hosts for the network benchmarks: network namespaces on this machine joined by a bridge.

Used by bench/run-net-compare and bench/run-net-scale (not a program of its own). Host i of a
group with prefix P is the network namespace P-hI with interface eth0 at 198.18.1.(i+1)/24 (the
benchmarking range of RFC 2544) and loopback, no other route and IPv6 off; every eth0 is one end
of a veth pair whose other end is a port of the bridge br0 in the namespace P-sw. Commands run on
a host inside its network namespace and a UTS namespace whose hostname is the host's name, so
that mpirun and the libraries see distinct nodes. /etc/netns/P-hI/hosts names every host.

Hosts.close() (also at exit, and on SIGINT and SIGTERM) kills every process inside the
namespaces, removes them (the veths and the bridge go with them) and their /etc/netns files.
Every command this module runs is under `timeout`.
"""

import atexit
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

SUBNET = "198.18.1.0/24"

# A remote shell for mpirun's rsh launcher: `AGENT HOST cmd...` runs the words of cmd as one sh
# command line on HOST (as ssh does), with a clean environment.
RSH_AGENT = """#!/bin/bash
set -u
host=$1
shift
case "$host" in
{prefix}-h[0-9]*) ;;
*) echo "rsh agent: '$host' is not one of the hosts {prefix}-h*" >&2; exit 255 ;;
esac
[ -e "/run/netns/$host" ] || {{ echo "rsh agent: no namespace $host" >&2; exit 255; }}
exec timeout -k 5 {timeout} ip netns exec "$host" unshare --uts \\
    env -i PATH="$PATH" HOME="${{HOME:-/root}}" OMPI_ALLOW_RUN_AS_ROOT=1 \\
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ${{LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"}} \\
    sh -c 'hostname "$0" && exec sh -c "$*"' "$host" "$@"
"""


def _t(cmd, timeout=20, check=True):
    """Runs a system-changing command under a short timeout."""
    r = subprocess.run(["timeout", "-k", "2", str(timeout)] + cmd, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return r


def can_run():
    """None when namespaces can be made here, else the reason."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "unshare", "timeout"):
        if not shutil.which(tool):
            return f"'{tool}' is not installed"
    return None


class Hosts:
    def __init__(self, n, prefix=None, timeout=600):
        if not 1 <= n <= 64:
            raise ValueError("1 to 64 hosts")
        self.n = n
        self.prefix = prefix or f"nb{os.getpid()}"
        self.timeout = timeout
        self.names = [f"{self.prefix}-h{i}" for i in range(n)]
        self.switch = f"{self.prefix}-sw"
        self.tmp = tempfile.mkdtemp(prefix=self.prefix + "-")
        self.rsh = os.path.join(self.tmp, "rsh")
        self._closed = False
        self._old = {}
        atexit.register(self.close)
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._old[sig] = signal.signal(sig, self._on_signal)
        try:
            self._make()
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _on_signal(self, signum, frame):
        self.close()
        sys.exit(128 + signum)

    @staticmethod
    def addr(i):
        return f"198.18.1.{i + 1}"

    def _make(self):
        off_v6 = ("echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6; "
                  "echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6")
        _t(["ip", "netns", "add", self.switch])
        _t(["ip", "netns", "exec", self.switch, "sh", "-c", off_v6], check=False)
        _t(["ip", "-n", self.switch, "link", "add", "br0", "type", "bridge", "forward_delay", "0",
            "stp_state", "0"])
        _t(["ip", "-n", self.switch, "link", "set", "lo", "up"])
        for i, ns in enumerate(self.names):
            _t(["ip", "netns", "add", ns])
            _t(["ip", "netns", "exec", ns, "sh", "-c", off_v6], check=False)
            _t(["ip", "-n", self.switch, "link", "add", f"p{i}", "type", "veth", "peer", "name",
                "eth0", "netns", ns])
            _t(["ip", "-n", self.switch, "link", "set", f"p{i}", "master", "br0", "up"])
            _t(["ip", "-n", ns, "link", "set", "lo", "up"])
            _t(["ip", "-n", ns, "addr", "add", self.addr(i) + "/24", "dev", "eth0"])
            _t(["ip", "-n", ns, "link", "set", "eth0", "up"])
        _t(["ip", "-n", self.switch, "link", "set", "br0", "up"])
        lines = ["127.0.0.1 localhost"] + [f"{self.addr(i)} {ns}" for i, ns in enumerate(self.names)]
        for ns in self.names:
            os.makedirs(f"/etc/netns/{ns}", exist_ok=True)
            with open(f"/etc/netns/{ns}/hosts", "w") as f:
                f.write("\n".join(lines) + "\n")
        with open(self.rsh, "w") as f:
            f.write(RSH_AGENT.format(prefix=self.prefix, timeout=self.timeout))
        os.chmod(self.rsh, stat.S_IRWXU)

    def pids(self):
        out = []
        for ns in self.names + [self.switch]:
            r = _t(["ip", "netns", "pids", ns], check=False)
            out += [int(p) for p in r.stdout.split() if p.isdigit() and int(p) != os.getpid()]
        return out

    def kill_all(self):
        """Ends every process inside the hosts (TERM, then KILL)."""
        for sig in (signal.SIGTERM, signal.SIGTERM, signal.SIGKILL):
            pids = self.pids()
            if not pids:
                return
            for p in pids:
                try:
                    os.kill(p, sig)
                except ProcessLookupError:
                    pass
            time.sleep(0.3)

    def close(self):
        if self._closed:
            return
        self._closed = True
        self.kill_all()
        have = _t(["ip", "netns", "list"], check=False).stdout.split()
        for ns in self.names + [self.switch]:
            if ns in have:
                _t(["ip", "netns", "del", ns], check=False)
            shutil.rmtree(f"/etc/netns/{ns}", ignore_errors=True)
        try:
            os.rmdir("/etc/netns")
        except OSError:
            pass
        shutil.rmtree(self.tmp, ignore_errors=True)
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def cmd(self, i, argv, timeout=None):
        """argv run on host i, under a timeout (seconds; default the group's)."""
        ns = self.names[i]
        return (["timeout", "-k", "5", str(timeout or self.timeout), "ip", "netns", "exec", ns,
                 "unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', ns] + list(argv))

    def mpirun(self, launcher, hosts, per_host, env_vars, program, extra=()):
        """An mpirun (or oshrun) command, run on host 0, for hosts x per_host ranks (block
        placement) reaching the other hosts through the rsh agent; env_vars (a dict) is passed
        to every rank with -x."""
        hostlist = ",".join(f"{self.names[i]}:{per_host}" for i in range(hosts))
        argv = [launcher, "--allow-run-as-root", "-np", str(hosts * per_host), "--host", hostlist,
                "--bind-to", "none", "--mca", "plm", "rsh", "--mca", "plm_rsh_agent", self.rsh,
                "--mca", "plm_rsh_no_tree_spawn", "1", "--mca", "oob_tcp_if_include", SUBNET,
                "--mca", "btl_tcp_if_include", SUBNET] + list(extra)
        for k, v in env_vars.items():
            argv += ["-x", f"{k}={v}"]
        return self.cmd(0, argv + list(program))
