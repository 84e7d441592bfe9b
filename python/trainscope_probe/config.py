"""The probe's configuration: the JSON object Trainscope puts in TRAINSCOPE_PROBE."""
import json
import os
from types import SimpleNamespace

from . import WIRE_VERSION

ENV = "TRAINSCOPE_PROBE"
# Profiling off unless Trainscope asks: a trace costs time and disk.
PROFILE_DEFAULTS = {"enabled": False, "skip_first": 0, "wait": 0, "warmup": 2, "active": 3,
                    "repeat": 1, "record_shapes": True, "profile_memory": True,
                    "with_stack": False}


class ConfigError(Exception):
    """TRAINSCOPE_PROBE cannot be used; the message names the key and the value."""


def _checked(value, default, name):
    # bool is an int in Python: told apart, so that "active": true is refused.
    if isinstance(default, bool) and not isinstance(value, bool):
        raise ConfigError(f"{ENV}: {name} must be true or false, not {value!r}")
    if type(default) is int and (type(value) is not int or value < 0):
        raise ConfigError(f"{ENV}: {name} must be a whole number >= 0, not {value!r}")
    if isinstance(default, str) and value is not None and not isinstance(value, str):
        raise ConfigError(f"{ENV}: {name} must be a path (a string), not {value!r}")
    return value


def load(environ=os.environ):
    """The configuration, or None without TRAINSCOPE_PROBE (then nothing is reported).
    Unknown keys are ignored, as readers of the wire format do, so that a newer Trainscope
    may add some."""
    text = environ.get(ENV)
    if not text:
        return None
    try:
        raw = json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{ENV} is not valid JSON: {error}") from None
    if not isinstance(raw, dict) or raw.get("v") != WIRE_VERSION:
        raise ConfigError(f"{ENV} must be a JSON object with \"v\": {WIRE_VERSION}, "
                          f"not {text[:80]!r}")
    given = raw.get("profile", {})
    if not isinstance(given, dict):
        raise ConfigError(f"{ENV}: profile must be a JSON object, not {given!r}")
    profile = {key: _checked(given.get(key, default), default, "profile." + key)
               for key, default in PROFILE_DEFAULTS.items()}
    if profile["enabled"] and profile["active"] < 1:
        raise ConfigError(f"{ENV}: profile.active must be at least 1 when profiling is on")
    return SimpleNamespace(
        socket=_checked(raw.get("socket"), "", "socket"),
        stream_file=_checked(raw.get("stream_file"), "", "stream_file"),
        trace_dir=os.path.abspath(_checked(raw.get("trace_dir"), "", "trace_dir") or "."),
        profile=profile, memory_every=_checked(raw.get("memory_every", 50), 0, "memory_every"),
        catch_slow=_checked(raw.get("catch_slow", False), False, "catch_slow"))
