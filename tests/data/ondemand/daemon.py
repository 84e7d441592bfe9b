#!/usr/bin/env python3
"""A stand-in for dynolog, enough for libkineto's on-demand traces (standard
library only). libkineto in a process started with KINETO_USE_DAEMON=1 polls
the abstract datagram socket "\\0dynolog\\0" every few seconds: this binds it,
answers the first "req" poll with the config given (once; later polls get an
empty one; serve(every_process=True) gives each process its own) and each "ctxt" message with one GPU.

    python3 daemon.py 'ACTIVITIES_LOG_FILE=/tmp/out/trace.json\\nACTIVITIES_DURATION_MSECS=300'

("\\n" as a literal backslash-n separates the config's lines.) Kineto appends
_<pid> to the trace file's name and writes only under /tmp/. Only one process
can bind the socket: bind() raises OSError (EADDRINUSE) while another daemon
runs. record.py uses bind() and serve() to record the fixtures.
"""
import socket
import struct
import sys
import time


def bind():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(b"\0dynolog\0")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    return s


def serve(s, config, seconds, done=lambda: False, log=print, every_process=False, at_poll=1):
    """Answers the polls for `seconds` or until done() is true. The config
    goes to the `at_poll`th poll (polls come every 5 s from the process's
    start), or with every_process to each process's `at_poll`th."""
    cfg = config.replace("\\n", "\n").encode()
    polls = {}
    t0 = time.time()
    s.settimeout(1)
    while time.time() - t0 < seconds and not done():
        try:
            data, anc, flags, addr = s.recvmsg(4096, socket.CMSG_SPACE(12))
        except socket.timeout:
            continue
        size, typ = struct.unpack("<Q32s", data[:40])
        creds = [struct.unpack("iII", d) for l, t, d in anc if t == socket.SCM_CREDENTIALS]
        log(round(time.time() - t0, 2), "from", addr, "size", size, typ.rstrip(b"\0"),
            data[40:].hex(), creds)
        if typ.startswith(b"req"):
            who = creds[0][0] if every_process and creds else None
            polls[who] = polls.get(who, 0) + 1
            reply = cfg if polls[who] == at_poll else b""
            s.sendto(struct.pack("<Q32s", len(reply), b"req") + reply, addr)
        elif typ.startswith(b"ctxt"):
            s.sendto(struct.pack("<Q32s", 4, b"ctxt") + struct.pack("<i", 1), addr)


if __name__ == "__main__":
    serve(bind(), sys.argv[1], 60, log=lambda *a: print(*a, flush=True))
