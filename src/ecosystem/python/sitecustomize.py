"""loopgate's start hook for the oracle's runs (issue 29, item 2; see `room::hook`).

Placed first on PYTHONPATH by the oracle. As the process loads, before any code of the project runs, it connects
to the room's socket (`report/hook.sock`, two directories up: no variable names it) and sends a key of its own
(`room::hook::record`). When `unittest.result` is imported it wraps `TestResult` so that the outermost test run
of the process sends its per-test results, one signed and counted JSON line per event, over that connection. At
that moment the hook's directory is taken out of PYTHONPATH, so the code under test sees the user's PYTHONPATH and
its child processes (a runner run inside the tests) load no hook; it is never left on `sys.path`. Nothing is
printed. A project's own `sitecustomize` further on the path is imported after this one, as Python would have.
"""

import os as _os
import sys as _sys


_loopgate_here = _os.path.dirname(_os.path.abspath(__file__))


def _loopgate_ours(entry):
    return _os.path.abspath(entry or ".") == _loopgate_here


def _loopgate_chain():
    ours = _sys.modules.pop("sitecustomize", None)
    _sys.path[:] = [p for p in _sys.path if not _loopgate_ours(p)]
    try:
        import sitecustomize  # noqa: F401  (the project's own, if it has one)
    except ImportError as err:
        if err.name != "sitecustomize":
            raise
        if ours is not None:
            _sys.modules["sitecustomize"] = ours


def _loopgate_unhook():
    theirs = [p for p in _os.environ.get("PYTHONPATH", "").split(_os.pathsep) if not _loopgate_ours(p)]
    if any(theirs):
        _os.environ["PYTHONPATH"] = _os.pathsep.join(theirs)
    else:
        _os.environ.pop("PYTHONPATH", None)


def _loopgate_runs_tests():
    # Whether this process runs unittest's runner, as its command line says before any code of the project runs:
    # `-m unittest`, `manage.py test`, or a script named as a test runner or a test module run directly
    # (`runtests.py`, `run_tests.py`, `test_calc.py`, `calc_test.py`). Its record must then hold a run
    # (`room::hook::record`). A process declared so that runs none leaves the baseline without a record, and the
    # verdict reads the output alone, as where no hook loaded.
    argv = list(getattr(_sys, "orig_argv", None) or [])
    at = 1
    while at < len(argv):
        word = argv[at]
        if word == "-m":
            return argv[at + 1 : at + 2] == ["unittest"]
        if word in ("-c", "-"):
            return False
        if word in ("-W", "-X", "-Q"):
            at += 2
            continue
        if word.startswith("-"):
            at += 1
            continue
        name = _os.path.basename(word)
        if name == "manage.py":
            return "test" in argv[at + 1 :]
        return name in ("runtests.py", "run_tests.py", "runtest.py", "tests.py") or (
            name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
        )
    return False


def _loopgate_record(path):
    # The record (`room::hook::record`): a connection to the room's socket, made as this process loads, before
    # any code of the project runs; its first line is this process's key, which never leaves it otherwise, and
    # every line after it is signed with the key and counted, so a line that code under test sends, or one it
    # keeps from being sent, shows.
    # No socket (a run in Claude Code's sandbox, which refuses Unix sockets): the events file beside it, as the
    # shims write it; loopgate reads it whole only where it could make no socket (`room::hook::record::OFF`).
    import _socket
    import json

    key = _os.urandom(16).hex()
    hello = {"hello": "unittest", "key": key, "runner": _loopgate_runs_tests(), "argv": getattr(_sys, "orig_argv", [])}
    try:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        sock.connect(path)
        sock.sendall((json.dumps(hello) + "\n").encode("utf-8", "replace"))
    except OSError:
        return _os.path.join(_os.path.dirname(path), "events.jsonl")
    return sock, key


def _loopgate_hook(record):
    import importlib.machinery
    import json

    state = {"outer": None, "seq": 0, "pid": _os.getpid()}

    def write(event, name=""):
        pid = _os.getpid()
        if isinstance(record, str):
            line = json.dumps({"runner": "unittest", "pid": pid, "event": event, "name": name}) + "\n"
            try:
                fd = _os.open(record, _os.O_WRONLY | _os.O_APPEND | _os.O_CREAT, 0o600)
                _os.write(fd, line.encode("utf-8", "replace"))
                _os.close(fd)
            except OSError:
                pass
            return
        import hashlib

        sock, key = record
        if pid != state["pid"]:
            # A forked child counts its own lines.
            state["pid"], state["seq"] = pid, 0
        seq = state["seq"]
        state["seq"] += 1
        line = json.dumps({"runner": "unittest", "pid": pid, "seq": seq, "event": event, "name": name})
        signature = hashlib.sha256(("%s\n%d\n%s" % (key, seq, line)).encode("utf-8", "replace")).hexdigest()
        try:
            sock.sendall(("%s %s\n" % (signature, line)).encode("utf-8", "replace"))
        except OSError:
            pass

    def wrap(cls, method, before=None, after=None):
        original = getattr(cls, method, None)
        if original is None:
            return

        def wrapper(self, *args, **kwargs):
            if before is not None:
                before(self, *args)
            result = original(self, *args, **kwargs)
            if after is not None and self is state["outer"]:
                after(self, *args)
            return result

        setattr(cls, method, wrapper)

    def start(self):
        if state["outer"] is None:
            state["outer"] = self
            write("begin")

    def stop(self):
        write("end")
        state["outer"] = None

    def named(event):
        return lambda self, test, *rest: write(event, test.id())

    def subtest(self, test, subtest, err=None):
        if err is not None:
            write("fail", test.id())

    def patch(result):
        cls = result.TestResult
        wrap(cls, "startTestRun", before=start)
        wrap(cls, "stopTestRun", after=stop)
        wrap(cls, "addSuccess", after=named("pass"))
        wrap(cls, "addUnexpectedSuccess", after=named("pass"))
        wrap(cls, "addFailure", after=named("fail"))
        wrap(cls, "addError", after=named("fail"))
        wrap(cls, "addSkip", after=named("skip"))
        wrap(cls, "addExpectedFailure", after=named("skip"))
        wrap(cls, "addSubTest", after=subtest)
        _loopgate_unhook()

    class Finder:
        def find_spec(self, name, target_path=None, target=None):
            if name != "unittest.result":
                return None
            _sys.meta_path[:] = [f for f in _sys.meta_path if f is not self]
            spec = importlib.machinery.PathFinder.find_spec(name, target_path)
            loader = getattr(spec, "loader", None)
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            exec_module = loader.exec_module

            def exec_and_patch(module):
                exec_module(module)
                patch(module)

            loader.exec_module = exec_and_patch
            return spec

    _sys.meta_path.insert(0, Finder())


def _loopgate_complete(name):
    # The start channel (`room::hook::complete`): the room's own words of `name` (pytest's cache and report
    # options, its naming option), kept in a file beside this hook, are taken out of the variable wherever they
    # stand and put back last, so a makefile's or a script's assignment before this process started dropped
    # only the user's words. pytest reads `PYTEST_ADDOPTS` after this runs; a process this one starts
    # inherits the completed value.
    try:
        with open(_os.path.join(_loopgate_here, _os.pardir, "words", name), encoding="utf-8") as f:
            words = f.read().strip()
    except OSError:
        return
    if not words:
        return
    value = _os.environ.get(name, "").replace(words, "").strip()
    _os.environ[name] = (value + " " + words) if value else words


if any(_loopgate_ours(p) for p in _os.environ.get("PYTHONPATH", "").split(_os.pathsep) if p):
    _loopgate_complete("PYTEST_ADDOPTS")
    _loopgate_hook(_loopgate_record(_os.path.join(_loopgate_here, _os.pardir, _os.pardir, "report", "hook.sock")))
_loopgate_chain()
