"""loopgate's start hook for the oracle's runs (issue 29, item 2; see `room::hook`).

Placed first on PYTHONPATH by the oracle. When `unittest.result` is imported it wraps `TestResult` so that the
outermost test run of the process appends its per-test results, one JSON line per event, to the events file
found from where this hook stands (`report/events.jsonl`, two directories up: no variable names it). At that
moment the hook's directory is taken out of PYTHONPATH, so the code under test sees the user's PYTHONPATH and
its child processes (a runner run inside the tests) load no hook; it is never left on `sys.path`. Nothing is
printed and nothing is imported until unittest is. A project's own `sitecustomize` further on the path is
imported after this one, as Python would have.
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


def _loopgate_hook(path):
    import importlib.machinery
    import json

    pid = _os.getpid()
    state = {"outer": None, "fd": None}

    def write(event, name=""):
        line = json.dumps({"runner": "unittest", "pid": pid, "event": event, "name": name}) + "\n"
        _os.write(state["fd"], line.encode("utf-8", "replace"))

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
            if state["fd"] is None:
                state["fd"] = _os.open(path, _os.O_WRONLY | _os.O_APPEND | _os.O_CREAT, 0o600)
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
    _loopgate_hook(_os.path.join(_loopgate_here, _os.pardir, _os.pardir, "report", "events.jsonl"))
_loopgate_chain()
