"""Deployment helpers: the nginx configuration of docs/deploy.md for a set of local processes
(used by the scale test and ``bench/load.py``).

>>> "server 127.0.0.1:8001" in nginx_config([8001, 8002], 8080, "/tmp/n")
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["nginx_config"]

_CONF = """
worker_processes 1;
pid {prefix}/nginx.pid;
{user}
events {{ worker_connections 8192; }}
http {{
    access_log {prefix}/logs/access.log;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    upstream duiyi {{
{servers}
        keepalive 64;
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 64k;
        location / {{
            proxy_pass http://duiyi;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Connection "";
            # never resent once a process got it (POST is not idempotent for nginx)
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
        }}
        location ~ ^/api/games/[^/]+/socket$ {{
            proxy_pass http://duiyi;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


def nginx_config(upstreams: list[int], port: int, prefix: str | Path, *, user: str = "") -> str:
    """nginx listening on 127.0.0.1:``port`` in front of the processes on ``upstreams``;
    ``prefix`` holds its logs and temporary files; ``user`` e.g. ``"user root;"``."""
    servers = "\n".join(
        f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in upstreams
    )
    return _CONF.format(prefix=prefix, user=user, servers=servers, port=port)
