"""One line-protocol engine process: start, write lines, read lines with a deadline, stop.

GTP (Go) and the Gomocup protocol (Gomoku) are both "one command line in, answer lines out"
over a child process's stdin/stdout. :class:`LineProcess` does that part once; the protocol
classes (:class:`duiyi.engines.gtp.GtpEngine`, :class:`duiyi.engines.gomocup.GomocupEngine`)
only format commands and read answers.

A background task reads stdout and splits it on ``\\r\\n``, ``\\r`` or ``\\n`` (Windows brains end
lines with CR LF, old ones with CR alone); every line (blank ones included: GTP ends an answer
with one) goes into a queue. A line that does not come before its deadline raises
:class:`~duiyi.errors.EngineTimeout`; the end of the output raises
:class:`~duiyi.errors.EngineCrashed` with the exit status.

>>> import asyncio, sys
>>> async def demo() -> list[str]:
...     proc = await LineProcess.start([sys.executable, "-c", "print(input()[::-1])"])
...     await proc.send(["olleh"])
...     line = await proc.readline("echo", timeout=10)
...     await proc.kill()
...     return [line]
>>> asyncio.run(demo())
['hello']
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import re
import shlex
import shutil
import signal
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import IO, Any, Final, TypeVar

from duiyi.errors import EngineCrashed, EngineError, EngineTimeout, InvalidInput

__all__ = [
    "LineProcess",
    "check_command",
    "engine_label",
    "find_program",
    "launch",
    "launch_or_error",
    "sort_launched",
    "split_command",
]

E = TypeVar("E")
K = TypeVar("K")

MAX_LINE: Final = 65536
_SPLIT: Final = re.compile(r"\r\n|\r|\n")


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as a list: a string is split as a shell would (``shlex``).

    >>> split_command("python3 brain.py --level 3"), split_command(["gnugo", "--mode", "gtp"])
    (['python3', 'brain.py', '--level', '3'], ['gnugo', '--mode', 'gtp'])
    """
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv:
        raise InvalidInput("empty engine command")
    return argv


def find_program(name: str) -> str:
    """``name`` as given, or from /usr/games when it is a bare name not on PATH (Debian's gnugo).

    >>> find_program("/bin/sh")
    '/bin/sh'
    """
    if os.sep in name or shutil.which(name):
        return name
    games = os.path.join("/usr/games", name)
    return games if os.access(games, os.X_OK) else name


_INTERPRETERS: Final = ("python", "pypy", "node", "java", "perl", "ruby", "bash", "sh")


def check_command(command: str | Sequence[str]) -> list[str]:
    """Refuse, before anything starts, an engine command whose program is not there: the
    program must be an executable file or on ``PATH``; for an interpreter (``python3``,
    ``node``...) the script it runs, when named as a file, must exist. Returns the argv.

    >>> check_command("/bin/sh -c true")
    ['/bin/sh', '-c', 'true']
    >>> check_command("python3 /no/such/brain.py")
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: engine command 'python3 /no/such/brain.py': no such file /no/such/brain.py
    """
    argv = split_command(command)
    shown = shlex.join(argv)
    program = find_program(argv[0])
    if os.sep in program:
        if not os.path.isfile(program):
            raise InvalidInput(f"engine command {shown!r}: no such program {program}")
        if not os.access(program, os.X_OK):
            raise InvalidInput(f"engine command {shown!r}: {program} is not executable")
    elif shutil.which(program) is None:
        raise InvalidInput(f"engine command {shown!r}: no program {program!r} on PATH")
    base = os.path.basename(program)
    if base.startswith(_INTERPRETERS) and "-c" not in argv[1:2] and "-m" not in argv[1:2]:
        scripts = [a for a in argv[1:] if not a.startswith("-")]
        named = scripts and (os.sep in scripts[0] or "." in scripts[0])
        if named and not os.path.exists(scripts[0]):
            raise InvalidInput(f"engine command {shown!r}: no such file {scripts[0]}")
    return argv


def engine_label(command: str | Sequence[str]) -> str:
    """A short name for an engine command: the program, or the script an interpreter runs.

    >>> engine_label("python3 brains/pbrain-foo.py --seed 1"), engine_label(["/opt/pbrain-bar"])
    ('pbrain-foo.py', 'pbrain-bar')
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        return "engine"
    program = argv[0].rsplit("/", 1)[-1]
    if "-c" in argv[1:2]:
        return f"{program} -c script"
    if program.startswith(("python", "pypy", "node", "java")):
        scripts = [a for a in argv[1:] if not a.startswith("-")]
        if scripts:
            return scripts[0].rsplit("/", 1)[-1]
    return program


class LineProcess:
    """A child process spoken to in lines. Create it with :meth:`start` (inside a running loop).

    ``born`` is the monotonic time the process started; :attr:`last_sent` the monotonic time
    the last :meth:`send` finished writing (a referee measures an engine's thinking time from
    there to the answer, as Piskvork does, so that its own overhead is not charged).
    """

    def __init__(
        self, process: asyncio.subprocess.Process, argv: Sequence[str], *, group: bool = False
    ) -> None:
        self.process = process
        self.argv = tuple(argv)
        # the process leads its own process group: killing it kills whatever it started
        self.group = group
        self.born = time.monotonic()
        self.last_sent = self.born
        self.suspended = False
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._eof = False
        self._reader = asyncio.get_running_loop().create_task(self._read_stdout())

    @classmethod
    async def start(
        cls,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stderr: int | IO[Any] | None = asyncio.subprocess.DEVNULL,
        group: bool = False,
    ) -> LineProcess:
        """Start ``command``; a program that cannot be executed raises :class:`EngineCrashed`.
        With ``group`` the process leads a new session (its own process group), and
        :meth:`kill` kills the whole group (a server's engines leave nothing behind)."""
        argv = split_command(command)
        argv = [find_program(argv[0]), *argv[1:]]
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=group,
            )
        except OSError as exc:
            raise EngineCrashed(f"cannot start engine {shlex.join(argv)}: {exc}") from exc
        return cls(process, argv, group=group)

    # -- reading ------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """A short label (see :func:`engine_label`)."""
        return engine_label(self.argv)

    @property
    def pid(self) -> int:
        """The process id."""
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended, else ``None``."""
        return self.process.returncode

    async def _read_stdout(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        after_cr = False
        try:
            while True:
                chunk = await stdout.read(4096)
                if not chunk:
                    break
                text = decoder.decode(chunk)
                if after_cr and text.startswith("\n"):
                    text = text[1:]  # the second half of a CR LF split between two reads
                after_cr = text.endswith("\r")
                pending += text
                parts = _SPLIT.split(pending)
                pending = parts.pop()
                if len(pending) > MAX_LINE:  # a manager may cut very long lines
                    parts.append(pending[:MAX_LINE])
                    pending = ""
                for part in parts:
                    self._lines.put_nowait(part)
            if pending:
                self._lines.put_nowait(pending)
        finally:
            self._lines.put_nowait(None)

    def died_message(self) -> str:
        """``engine NAME exited with exit status N`` (for reports)."""
        code = self.process.returncode
        how = f" with exit status {code}" if code is not None else ""
        return f"engine {self.name} exited{how}"

    async def readline(
        self, what: str, *, timeout: float | None = None, deadline: float | None = None
    ) -> str:
        """The next line (without its end), waiting at most ``timeout`` seconds or until the
        monotonic ``deadline``. Raises :class:`EngineTimeout` or :class:`EngineCrashed`
        (``what`` names the command being answered, for the message)."""
        if deadline is None and timeout is not None:
            deadline = time.monotonic() + timeout
        if self._eof:
            raise EngineCrashed(f"{self.died_message()} while {what} was due", self.returncode)
        try:
            if not self._lines.empty():
                line = self._lines.get_nowait()
            else:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError
                async with asyncio.timeout(remaining):
                    line = await self._lines.get()
        except TimeoutError:
            raise EngineTimeout(f"engine {self.name} did not answer {what} in time") from None
        if line is None:
            self._eof = True
            await self.wait(1.0)
            raise EngineCrashed(f"{self.died_message()} while {what} was due", self.returncode)
        return line

    # -- writing ------------------------------------------------------------------------------

    async def send(self, lines: Sequence[str], *, eol: str = "\n") -> None:
        """Write ``lines`` (each followed by ``eol``) and flush; a closed pipe raises
        :class:`EngineCrashed`."""
        if self.suspended:
            self.resume()
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing() or self.process.returncode is not None:
            raise EngineCrashed(self.died_message(), self.process.returncode)
        try:
            stdin.write("".join(f"{line}{eol}" for line in lines).encode())
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise EngineCrashed(self.died_message(), self.process.returncode) from exc
        self.last_sent = time.monotonic()

    # -- stopping -----------------------------------------------------------------------------

    def suspend(self) -> bool:
        """Stop the process (``SIGSTOP``) so it cannot think on the opponent's time. False where
        signals are not available or the process has ended. :meth:`send` resumes it."""
        sig = getattr(signal, "SIGSTOP", None)
        if sig is None or self.process.returncode is not None or self.suspended:
            return False
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(sig)
            self.suspended = True
        return self.suspended

    def resume(self) -> None:
        """Let a suspended process run again (``SIGCONT``)."""
        sig = getattr(signal, "SIGCONT", None)
        if sig is not None and self.suspended and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)
        self.suspended = False

    def kill_group(self) -> None:
        """SIGKILL the process group of a process started with ``group`` (nothing otherwise):
        synchronous, so a server that is stopping can call it for every engine at once."""
        if self.group and hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    async def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the process to exit; its status or ``None``."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # not wait_for: in 3.11 it can drop a cancel
                await self.process.wait()
        return self.process.returncode

    async def kill(self) -> int | None:
        """Kill the process at once (if it still runs) and reap it; returns the exit status.
        A process started with ``group`` has its whole process group killed."""
        if self.process.returncode is None:
            self.resume()
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        self.kill_group()
        await self.wait(5.0)
        if self.process.stdin is not None:
            self.process.stdin.close()
        self._reader.cancel()
        try:
            await self._reader
        except asyncio.CancelledError:
            # the reader's own cancellation is expected; the caller's is not ours to swallow
            # (a Ctrl-C landing here, as a game's engines close, must still stop an event)
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
        except Exception:
            pass  # the reader's error ended with its process
        return self.process.returncode


async def launch(
    command: str | Sequence[str],
    greet: Callable[[LineProcess], Awaitable[E]],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    stderr: int | IO[Any] | None = asyncio.subprocess.DEVNULL,
    group: bool = False,
) -> E:
    """The start-up handshake of every engine protocol: start ``command``, then ``greet`` the
    new process (build the protocol object and send the protocol's first command: GTP
    ``protocol_version``, Gomocup ``START``, each within its own limit). Returns what ``greet``
    returns. On any failure the process is killed before the error goes on: a program that
    cannot run raises :class:`EngineCrashed`, a greeting that does not come in time
    :class:`EngineTimeout`.

    >>> import sys
    >>> async def hello(line: LineProcess) -> str:
    ...     await line.send(["hi"])
    ...     answer = await line.readline("hello", timeout=10)
    ...     await line.kill()
    ...     return answer
    >>> asyncio.run(launch([sys.executable, "-c", "print(input() + '!')"], hello))
    'hi!'
    """
    line = await LineProcess.start(command, cwd=cwd, env=env, stderr=stderr, group=group)
    try:
        return await greet(line)
    except BaseException:
        await line.kill()
        raise


async def launch_or_error(start: Awaitable[E]) -> E | EngineError:
    """For a referee: the started engine, or the :class:`EngineError` saying why it did not
    start (an empty or unreadable command becomes :class:`EngineCrashed`), as a value: a
    player who cannot start is ruled (a no-show), not an exception.

    >>> async def nothing() -> str:
    ...     return await launch_or_error(launch("/nonexistent/engine", asyncio.sleep))
    >>> type(asyncio.run(nothing())).__name__
    'EngineCrashed'
    """
    try:
        return await start
    except InvalidInput as exc:
        return EngineCrashed(str(exc))
    except EngineError as exc:
        return exc


def sort_launched(
    launched: Mapping[K, E | EngineError],
) -> tuple[dict[K, E], dict[K, EngineError]]:
    """:func:`launch_or_error`'s answers by player: those that started, and why the others
    did not.

    >>> sort_launched({"a": "engine", "b": EngineCrashed("no")})
    ({'a': 'engine'}, {'b': EngineCrashed('no')})
    """
    started: dict[K, E] = {}
    failed: dict[K, EngineError] = {}
    for key, item in launched.items():
        if isinstance(item, EngineError):
            failed[key] = item
        else:
            started[key] = item
    return started, failed
