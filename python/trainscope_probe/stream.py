"""The line stream to Trainscope: JSON lines out, Trainscope's control lines in."""
import json
import os
import socket
import struct
import sys

# A Trainscope that stops reading (frozen, not gone) must not stall the training for long:
# past this a send fails and the probe stops reporting.
SEND_TIMEOUT_S = 10
# Control lines are looked for at most this often: a recv() costs up to ~30 us when the
# step has cooled the caches, and a person's "trace the next steps" can wait 50 ms.
CONTROL_EVERY_NS = 50_000_000


class LineStream:
    """One JSON object a line to a Unix stream socket, or appended to a file (tests). A
    write that fails (Trainscope gone) ends the reporting silently: the script goes on."""

    def __init__(self, socket_path=None, file_path=None):
        self._sock = self._fd = None
        self._inbox, self._cut, self._looked = b"", False, -CONTROL_EVERY_NS
        self._pid = os.getpid()  # DataLoader workers are forks of this process: they never write
        try:
            if socket_path:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(socket_path)
                # A kernel send timeout keeps the socket blocking, so that recv() with
                # MSG_DONTWAIT returns at once (a Python-level timeout would poll first).
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                                struct.pack("ll", SEND_TIMEOUT_S, 0))
                self._sock = sock
            elif file_path:
                self._fd = os.open(file_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                                   | os.O_CLOEXEC, 0o644)
        except OSError as error:
            print(f"trainscope_probe: cannot reach Trainscope at {socket_path or file_path}: "
                  f"{error}; the script runs without reporting", file=sys.stderr)

    def send(self, line):
        # allow_nan=False: NaN is not JSON; callers turn non-finite numbers into null.
        self.write(json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n")

    def write(self, text):
        """Lines already encoded (the step line is, for speed: steps.py)."""
        if (self._sock is None and self._fd is None) or os.getpid() != self._pid:
            return
        if self._cut:  # the last line may have been cut: this one starts on a line of its own
            text, self._cut = "\n" + text, False
        try:
            if self._sock is not None:
                self._sock.sendall(text.encode())
            else:
                os.write(self._fd, text.encode())
        except (OSError, ValueError):
            self.close()
        except BaseException:  # a Ctrl-C in the middle of a line
            self._cut = True
            raise

    def note(self, rank, level, text):
        self.send({"t": "note", "rank": rank, "level": level, "text": text})

    def save(self, rank, what, path, write):
        """Calls write(path), its folder made; a failure (a full disk) is a note, not the
        end of the training. Returns whether it was written."""
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            write(path)
            return True
        except Exception as error:
            self.note(rank, "error", f"could not write {what} {path}: {error}")
            return False

    def control(self, now_ns):
        """Trainscope's control lines received so far, without waiting."""
        if self._sock is None or now_ns - self._looked < CONTROL_EVERY_NS:
            return ()
        self._looked = now_ns
        while self._sock is not None:
            try:
                chunk = self._sock.recv(4096, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self.close()
                break
            if not chunk:  # Trainscope closed its side for writing: nothing more to read
                break
            self._inbox += chunk
        *lines, self._inbox = self._inbox.split(b"\n")
        messages = []
        for raw in lines:
            try:
                message = json.loads(raw)
            except ValueError:
                continue  # skipped, as readers of the format skip what they do not know
            if isinstance(message, dict):
                messages.append(message)
        return messages

    def close(self):
        if self._sock is not None:
            self._sock.close()
        if self._fd is not None:
            os.close(self._fd)
        self._sock = self._fd = None
