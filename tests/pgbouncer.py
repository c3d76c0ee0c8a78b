"""A real PgBouncer in transaction pooling, in front of the tests' PostgreSQL server.

Debian's ``pgbouncer`` (installed by :func:`program` where it is missing and the run
may: as root, with apt), started on a free port
of 127.0.0.1 with its configuration in a temporary folder, deleted at the end; where it
cannot start, :func:`start` says why and the tests through it are skipped. Its pools are
smaller than the bot's (:data:`SERVER_CONNECTIONS` server connections per database),
so the clients' transactions really do change server connections: what a session left
on one (a prepared statement, a lock, a ``LISTEN``) is not there on the next.

Each test gets a database of its own (:meth:`Bouncer.fresh`, a real ``CREATE
DATABASE``: PgBouncer 1.18 passes no ``search_path`` on, so the schemas the direct tests
use would all be one). A :class:`Bouncer` quacks like :class:`tests.postgres.Server`.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from tests import postgres
from tests.timing import seconds

#: Server connections PgBouncer opens per database and user, fewer than a bot's pool.
SERVER_CONNECTIONS = 3
_PROGRAM = "pgbouncer"


class Bouncer:
    def __init__(
        self, server: postgres.Server, process: subprocess.Popen[bytes], port: int, folder: Path
    ) -> None:
        self.server = server
        self.process = process
        self.port = port
        self.folder = folder
        self._names = itertools.count(1)
        user = urlsplit(server.url).username or "postgres"
        self.url = f"postgresql://{user}@127.0.0.1:{port}/postgres"

    def url_of(self, database: str) -> str:
        return urlunsplit(urlsplit(self.url)._replace(path="/" + database))

    async def fresh(self) -> str:
        """The URL, through PgBouncer, of a new, empty database."""
        name = f"bouncer_{os.getpid()}_{next(self._names)}"
        await self.server._admin(f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}")
        return self.url_of(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=seconds(10))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "pgbouncer.log").read_text(errors="replace")
        return ""


def _upstream(url: str) -> tuple[str, int, str]:
    """The server's host (a Unix socket's folder, or an address), port and user."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    host = query.get("host") or parts.hostname or "127.0.0.1"
    port = int(query.get("port") or parts.port or 5432)
    if host.startswith("/") and "port" not in query:  # the run's own server's socket
        sockets = [p for p in Path(host).glob(".s.PGSQL.*") if p.suffix != ".lock"]
        if sockets:
            port = int(sockets[0].name.rsplit(".", 1)[1])
    return host, port, parts.username or "postgres"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config(
    *, port: int, host: str, server_port: int, user: str, folder: Path, pool_size: int
) -> str:
    """pgbouncer.ini: every database of the server (``*``), transaction pooling."""
    return "\n".join(
        [
            "[databases]",
            f"* = host={host} port={server_port}",
            "[pgbouncer]",
            "listen_addr = 127.0.0.1",
            f"listen_port = {port}",
            "unix_socket_dir =",
            "auth_type = trust",
            f"auth_file = {folder / 'users.txt'}",
            f"admin_users = {user}",
            "pool_mode = transaction",
            f"default_pool_size = {pool_size}",
            "max_client_conn = 500",
            "server_idle_timeout = 2",  # a finished test's database lets its connections go
            f"logfile = {folder / 'pgbouncer.log'}",
            "",
        ]
    )


def _found() -> str | None:
    return shutil.which(_PROGRAM) or (
        "/usr/sbin/pgbouncer" if os.path.exists("/usr/sbin/pgbouncer") else None
    )


def installed_program() -> str | None:
    """The pgbouncer program, installed from Debian's packages first where it is missing
    and this run may install (root, apt-get): the test command brings its own PgBouncer
    as it brings its own PostgreSQL. None where it is not there and cannot be."""
    if _found() is None and shutil.which("apt-get") and os.geteuid() == 0:
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "pgbouncer"]
        patience = seconds(300)  # a download from Debian's mirrors
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            if subprocess.run(install, env=environment, timeout=patience, **quiet).returncode:
                subprocess.run(
                    ["apt-get", "update", "-q"], env=environment, timeout=patience, **quiet
                )
                subprocess.run(install, env=environment, timeout=patience, **quiet)
    return _found()


def start(server: postgres.Server, *, pool_size: int = SERVER_CONNECTIONS) -> Bouncer | str:
    """PgBouncer running in front of ``server`` (``pool_size`` server connections per
    database), or the reason it is not."""
    program = installed_program()
    if program is None:
        return "PgBouncer tests need the pgbouncer program (apt-get install pgbouncer)"
    host, server_port, user = _upstream(server.url)
    folder = Path(tempfile.mkdtemp(prefix="boardbot-pgbouncer-"))
    folder.chmod(0o755)
    port = _free_port()
    (folder / "users.txt").write_text(f'"{user}" ""\n')
    ini = folder / "pgbouncer.ini"
    ini.write_text(
        config(
            port=port,
            host=host,
            server_port=server_port,
            user=user,
            folder=folder,
            pool_size=pool_size,
        )
    )
    command = [program]
    if os.geteuid() == 0:  # PgBouncer will not run as root
        runner = _unprivileged(host)
        if runner is None:
            shutil.rmtree(folder, ignore_errors=True)
            return "PgBouncer will not run as root, and there is no user postgres or nobody"
        os.chown(folder, pwd.getpwnam(runner).pw_uid, -1)
        command += ["-u", runner]
    process = subprocess.Popen(
        [*command, str(ini)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    bouncer = Bouncer(server, process, port, folder)
    deadline = time.monotonic() + seconds(10)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            why = (process.stderr.read() if process.stderr else b"").decode(errors="replace")
            bouncer.stop()
            return f"PgBouncer did not start: {why.strip() or bouncer.log().strip()}"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            why_not = postgres.reachable(postgres.Server(bouncer.url))
            if why_not is None:
                return bouncer
            said = bouncer.log().strip().splitlines()[-3:]
            bouncer.stop()
            return f"PgBouncer does not pass connections on: {why_not} ({' / '.join(said)})"
        time.sleep(0.05)
    bouncer.stop()
    return "PgBouncer did not listen within 10 s"


def _unprivileged(host: str) -> str | None:
    """A user PgBouncer may run as: the owner of the server's socket folder (which may
    let no one else in), else postgres or nobody."""
    if host.startswith("/") and os.path.isdir(host) and (owner := os.stat(host).st_uid):
        return pwd.getpwuid(owner).pw_name
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    return None
