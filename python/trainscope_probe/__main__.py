"""python -m trainscope_probe SCRIPT [ARGS...] | -m MODULE [ARGS...]

Runs the script as __main__ as `python SCRIPT ARGS...` would (its own sys.argv, its folder
first on sys.path), measured when TRAINSCOPE_PROBE is set. The exit status, the traceback
and a Ctrl-C behave as without the probe."""
import importlib.util
import os
import runpy
import sys
import traceback

from .config import ConfigError, load

USAGE = "usage: python -m trainscope_probe SCRIPT [ARGS...] | -m MODULE [ARGS...]"
_PROBE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_RUNPY = (runpy.__file__, "<frozen runpy>")
ERROR_LINES = 5  # of the traceback, in the bye line


def _script_frames(tb):
    """The traceback from the script's first frame on: python alone would not show the
    frames of runpy and of the probe above it."""
    while tb is not None and (tb.tb_frame.f_code.co_filename.startswith(_PROBE_DIR)
                              or tb.tb_frame.f_code.co_filename in _RUNPY):
        tb = tb.tb_next
    return tb


def _trim_tracebacks():
    hook = sys.excepthook  # the script's own, if it set one

    def excepthook(kind, value, tb):
        # The default hook prints the exception's own __traceback__, not `tb`.
        tb = _script_frames(tb)
        hook(kind, value.with_traceback(tb) if value is not None else value, tb)
    sys.excepthook = excepthook


def _exit_code(code):
    """The status python ends with for SystemExit(code): a message is printed, status 1."""
    if code is None:
        return 0
    return code & 0xFF if isinstance(code, int) and not isinstance(code, bool) else 1


def _target(args):
    """(script, module, arguments), or the exit python gives for a missing one."""
    if not args or args[0] in ("-h", "--help") or args == ["-m"]:
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    if args[0] == "-m":
        try:
            found = importlib.util.find_spec(args[1]) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            print(f"trainscope_probe: No module named {args[1]}", file=sys.stderr)
            sys.exit(1)
        return None, args[1], args[2:]
    if not os.path.exists(args[0]):
        print(f"trainscope_probe: can't open file {os.path.abspath(args[0])!r}: "
              "[Errno 2] No such file or directory", file=sys.stderr)
        sys.exit(2)
    return args[0], None, args[1:]


def main():
    script, module, args = _target(sys.argv[1:])
    try:
        config = load()
    except ConfigError as error:
        print(f"trainscope_probe: {error}", file=sys.stderr)
        sys.exit(2)
    sys.argv = [script or module, *args]  # runpy puts a module's file in sys.argv[0]
    if script is not None:
        sys.path[0] = os.path.dirname(os.path.realpath(script))
    session = None
    if config is not None:
        from .session import Session  # imports torch: only when measuring
        session = Session(config, script, module)

    def end(status, exit_code, error=None):
        if session is not None:
            session.finish(status, exit_code, error)

    try:
        if script is not None:
            runpy.run_path(script, run_name="__main__")
        else:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exit:
        end("exit", _exit_code(exit.code))
        raise
    except KeyboardInterrupt:  # re-raised, python prints it and ends by SIGINT
        _trim_tracebacks()
        end("interrupted", 130)
        raise
    except BaseException as error:
        lines = traceback.format_exception(type(error), error,
                                           _script_frames(error.__traceback__))
        _trim_tracebacks()
        end("exception", 1, "\n".join("".join(lines).splitlines()[-ERROR_LINES:]))
        raise
    end("ok", 0)


if __name__ == "__main__":
    main()
