"""A throwaway PostgreSQL server for the tests (and ``benchmarks/sessions.py``).

Where the binaries come from, first found wins: ``PG_BINDIR``; ``pg_config --bindir``;
Debian's ``/usr/lib/postgresql/<version>/bin``. ``initdb`` writes a cluster into a fresh
temporary folder and ``postgres`` listens only on a unix socket in that folder (no TCP),
with ``fsync=off``: nothing here needs to survive a power cut. PostgreSQL refuses to run as
root, so under root (CI) both run as ``nobody``, who owns the folder.

``TEST_DATABASE_URL`` points the tests at an existing server instead; each test then works
in a schema of its own (created and dropped around it) there too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PORT = 5432  # only names the socket file: the server listens on no TCP port
# Nothing a test writes must survive a power cut: skip the syncs.
_NOT_DURABLE = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")


class Unavailable(Exception):
    """No PostgreSQL can be had here; the message says why."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))
    if shutil.which("pg_config"):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            found = subprocess.run(
                ["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            candidates.append(Path(found))
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates.extend(debian)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def with_schema(url: str, schema: str) -> str:
    """``url`` with every session's ``search_path`` set to ``schema`` (asyncpg passes unknown
    query parameters on as server settings)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


class PgServer:
    """One running server; :meth:`url` names a database on it."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable  # fsync as a real server does (the benchmark), or not (tests)
        self.root = Path(tempfile.mkdtemp(prefix="gammon-pg-"))
        self.data = self.root / "data"
        self.process: subprocess.Popen[bytes] | None = None
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            self._as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
        self.root.chmod(0o700)
        self.log = self.root / "server.log"

    @property
    def base_url(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.root}&port={PORT}"

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        done = subprocess.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
            timeout=120,
            check=False,
            **self._as,
        )
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {(done.stderr or done.stdout).strip()[-400:]}")
        self.launch(timeout)

    def launch(self, timeout: float = 30.0) -> None:
        """Start the server on the cluster :meth:`start` made (again, after :meth:`crash`)."""
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        log = open(self.log, "ab")  # noqa: SIM115  (the server writes to it until stopped)
        self.process = subprocess.Popen(
            [
                str(self.bindir / "postgres"),
                "-D",
                str(self.data),
                "-k",
                str(self.root),
                "-p",
                str(PORT),
                "-c",
                "listen_addresses=",
                *(() if self.durable else _NOT_DURABLE),
                "-c",
                "max_connections=200",
                "-c",
                "shared_buffers=64MB",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.root,
            start_new_session=True,
            **self._as,
        )
        log.close()
        socket = self.root / f".s.PGSQL.{PORT}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Unavailable(f"postgres exited: {self.log.read_text()[-400:]}")
            ready = subprocess.run(
                [str(self.bindir / "pg_isready"), "-q", "-h", str(self.root), "-p", str(PORT)],
                check=False,
            )
            if socket.exists() and ready.returncode == 0:
                return
            time.sleep(0.05)
        self.stop()
        raise Unavailable(f"postgres did not start within {timeout:.0f} s")

    def crash(self) -> None:
        """``pg_ctl stop -m immediate``: every server process ends at once, with no
        checkpoint, as in a crash; the next :meth:`launch` recovers from the WAL."""
        assert self.process is not None
        subprocess.run(
            [str(self.bindir / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate", "-w"],
            capture_output=True,
            cwd=self.root,
            timeout=60,
            check=True,
            **self._as,
        )
        self.process.wait(20)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.root, ignore_errors=True)


def _run(coroutine: Any) -> Any:
    """Run a coroutine to the end on a loop of its own, even from inside a running loop."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


async def _execute(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Schemas:
    """Fresh schemas on one database: each test gets an empty one (``search_path`` set)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def create(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        _run(_execute(self.url, f"CREATE SCHEMA {name}"))
        return name

    def drop(self, name: str) -> None:
        _run(_execute(self.url, f"DROP SCHEMA IF EXISTS {name} CASCADE"))

    @contextlib.contextmanager
    def fresh(self) -> Iterator[str]:
        """A URL whose sessions work in a new, empty schema, dropped afterwards."""
        name = self.create()
        try:
            yield with_schema(self.url, name)
        finally:
            self.drop(name)


@contextlib.contextmanager
def postgres(*, durable: bool = False) -> Iterator[Schemas]:
    """A server to test against: ``TEST_DATABASE_URL``'s, or a throwaway one (``durable``:
    fsyncing every commit, as a real server does).

    Raises :class:`Unavailable` when neither can be had.
    """
    given = os.environ.get("TEST_DATABASE_URL", "").strip()
    if given:
        try:
            _run(_execute(given, "SELECT 1"))
        except Exception as exc:
            raise Unavailable(f"TEST_DATABASE_URL cannot be reached: {exc}") from exc
        yield Schemas(given)
        return
    bindir = find_bindir()
    if bindir is None:
        raise Unavailable(
            "no PostgreSQL binaries (set PG_BINDIR, put pg_config on PATH, install Debian's "
            "postgresql, or set TEST_DATABASE_URL)"
        )
    server = PgServer(bindir, durable=durable)
    try:
        server.start()
        yield Schemas(server.base_url)
    finally:
        server.stop()


__all__ = ["PgServer", "Schemas", "Unavailable", "find_bindir", "postgres", "with_schema"]
