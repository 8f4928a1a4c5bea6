"""nginx in front of several `duiyi serve` processes: the deployment of docs/deploy.md, run for
real in the tests and in bench/load_nginx.py.

nginx (Debian's /usr/sbin/nginx) runs as a child process in the foreground with its own prefix,
pid file, logs and temp directories in a scratch folder, on a free port. Its server block is
deploy/nginx-duiyi.conf itself, with the listen port, the upstream addresses and the access log
path substituted, so what the tests exercise is what the deployment guide tells operators to
install.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tests.server.conftest import Server, free_port, operator, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
SITE_CONF = ROOT / "deploy" / "nginx-duiyi.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# what a deployment gets from /etc/nginx/nginx.conf, here with every path inside the prefix
_MAIN = """\
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
{user}
events {{
    worker_connections 8192;
}}
http {{
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{site}
}}
"""


def render(port: int, upstreams: list[int], prefix: Path) -> str:
    """nginx.conf for a listen port and the processes' ports, from deploy/nginx-duiyi.conf."""
    site = SITE_CONF.read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+(.*);$", site, re.MULTILINE)
    if not servers:
        raise ValueError(f"no upstream server line in {SITE_CONF}")
    options = servers[0]
    lines = "\n".join(f"    server 127.0.0.1:{p}{options};" for p in upstreams)
    site, n = re.subn(r"(?:^\s*server 127\.0\.0\.1:\d+.*;\n)+", lines + "\n", site, flags=re.M)
    assert n == 2, "two upstream blocks: round robin, and the games' consistent hash"
    site, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert n == 1
    site, n = re.subn(r"access_log \S+", f"access_log {prefix}/access.log", site)
    assert n == 1
    # as root, nginx's workers would switch to nobody, who cannot enter a private tmp folder
    user = "user root;" if os.geteuid() == 0 else ""
    return _MAIN.format(prefix=prefix, user=user, site=site)


@dataclass
class Nginx:
    """One nginx master process (plus its worker) in the foreground."""

    upstreams: list[int]
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    prefix: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, tmp: Path) -> Nginx:
        self.prefix = tmp / f"nginx-{self.port}"
        self.prefix.mkdir(parents=True, exist_ok=True)
        conf = self.prefix / "nginx.conf"
        conf.write_text(render(self.port, self.upstreams, self.prefix))
        # -e: the error log before the configuration is read (not /var/log/nginx)
        cmd = [NGINX, "-p", str(self.prefix), "-c", str(conf), "-e", str(self.prefix / "error.log")]
        check = subprocess.run([*cmd, "-t"], capture_output=True, text=True, check=False)
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t refused {conf}:\n{check.stderr}")
        out = (self.prefix / "stdout.log").open("wb")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        wait_healthy("nginx", self.url, self.proc, self.error_log, within=20)
        return self

    def error_log(self) -> str:
        path = self.prefix / "error.log" if self.prefix else None
        return path.read_text(errors="replace") if path and path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: finish requests, then exit
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@dataclass
class Cluster:
    """N `duiyi serve` processes on one PostgreSQL + Redis, nginx in front."""

    servers: list[Server]
    nginx: Nginx
    tmp: Path
    stopped: set[int] = field(default_factory=set)

    def pause(self, i: int) -> None:
        """SIGSTOP: the process keeps its sockets and its ownership but does nothing."""
        proc = self.servers[i].proc
        assert proc is not None
        proc.send_signal(signal.SIGSTOP)
        self.stopped.add(i)

    def resume(self, i: int) -> None:
        proc = self.servers[i].proc
        assert proc is not None
        proc.send_signal(signal.SIGCONT)
        self.stopped.discard(i)

    def kill9_and_restart(self, i: int) -> None:
        """kill -9, then the same command on the same port (what systemd's Restart= does)."""
        if i in self.stopped:
            self.resume(i)
        self.servers[i].kill9()
        self.servers[i].start(self.tmp)

    def log_lines(self, text: str) -> list[str]:
        """The lines of every process's log (all its lives) that contain ``text``."""
        return [
            line
            for path in sorted(self.tmp.glob("server-*.log"))
            for line in path.read_text(errors="replace").splitlines()
            if text in line
        ]

    def logs(self) -> str:
        """Every process's log (all its lives) and nginx's error log, for a failure message."""
        parts = []
        for path in sorted(self.tmp.glob("server-*.log")):
            parts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}")
        parts.append(f"--- nginx error.log\n{self.nginx.error_log()[-4000:]}")
        return "\n".join(parts)

    def stop(self) -> None:
        for i in list(self.stopped):
            self.resume(i)
        self.nginx.stop()
        for server in self.servers:
            server.stop()


def peers(ports: list[int]) -> str:
    """DUIYI_PEERS for processes on ``ports``: the upstream addresses as nginx names them."""
    return ",".join(f"127.0.0.1:{p}" for p in ports)


def start_cluster(
    database: str,
    redis: str,
    tmp: Path,
    processes: int = 3,
    ring: bool = True,
    name: Callable[[int], str] | None = None,
) -> Cluster:
    """Start ``processes`` servers and nginx in front of them (stop() undoes everything). Each
    process knows the upstream list (DUIYI_PEERS), so it owns the games nginx sends it
    (``ring=False``: no DUIYI_PEERS, the creator of a game owns it, as before issue 26).
    ``name(port)``: how DUIYI_PEERS (and DUIYI_PEER_ADDRESS) name the process on ``port``, when
    not as nginx does (``localhost:8001``: the operator's mistake of docs/deploy.md)."""
    servers = [Server(database, redis) for _ in range(processes)]
    for server in servers:  # as docs/deploy.md's duiyi.env: nginx alone closes idle connections
        server.env.setdefault("DUIYI_KEEP_ALIVE_TIMEOUT", "75")
    for server in servers if ring else ():
        if name is None:
            server.env["DUIYI_PEERS"] = peers([s.port for s in servers])
        else:
            server.env["DUIYI_PEERS"] = ",".join(name(s.port) for s in servers)
            server.env["DUIYI_PEER_ADDRESS"] = name(server.port)
    try:
        for server in servers:
            server.start(tmp)
        nginx = Nginx([s.port for s in servers]).start(tmp)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return Cluster(servers, nginx, tmp)


def wait_peers_alive(cluster: Cluster, within: float = 30.0) -> None:
    """Until every process sees every peer alive (a process started first learns of the later
    ones at its next heartbeat; a game made before that would be created for another owner and
    handed over once it does)."""
    peers = sorted(f"127.0.0.1:{s.port}" for s in cluster.servers)
    deadline = time.monotonic() + within
    while True:
        seen = [
            httpx.get(s.url + "/api/metrics", headers=operator(), timeout=10).json()["live_peers"]
            for s in cluster.servers
        ]
        if all(live == peers for live in seen):
            return
        assert time.monotonic() < deadline, seen
        time.sleep(0.2)
