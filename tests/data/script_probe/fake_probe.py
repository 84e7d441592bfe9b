"""Plays a probe's part for ScriptRunTest: sends the lines of a scenario file.

Usage (as fake_python.sh runs it): fake_probe.py SCENARIO [ARGS...]
Each scenario line is sent to Trainscope's socket as it is, except:
  #sleep S        wait S seconds
  #stdout TEXT    print TEXT to standard output (#stderr: to standard error)
  #trace A B      save a small trace of steps A-B in trace_dir, send its line
  #interruptible  on SIGINT: send bye "interrupted" and exit 130
  #ignore-interrupt  ignore SIGINT (a script that swallows Stop)
  #exit N         exit with status N (#kill: die by SIGKILL)
  #steps N RATE   N steps of 1 ms at RATE a second (bench/gui/bench_script_stream)
"""
import json
import os
import signal
import socket
import sys
import time


def send_steps(send, count, rate):
    """Paced in batches of 10 ms, as a fast training loop's probe sends them."""
    start = time.monotonic()
    for step in range(count):
        send(json.dumps({"t": "step", "rank": 0, "step": step, "epoch": 0,
                         "wall_s": time.monotonic() - start, "step_ms": 1, "data_ms": 0.1,
                         "forward_ms": 0.3, "backward_ms": 0.4, "optimizer_ms": 0.1,
                         "batch": 32, "loss": 2.0 / (1 + step / 1000), "lr": 0.1,
                         "rss": 500 << 20, "profiled": False}))
        ahead = (step + 1) / rate - (time.monotonic() - start)
        if ahead > 0.01:
            time.sleep(ahead)


def main():
    config = json.loads(os.environ["TRAINSCOPE_PROBE"])
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(config["socket"])

    def send(text):
        sock.sendall(text.encode() + b"\n")

    def interrupted(*_):
        send(json.dumps({"t": "bye", "steps": 0, "status": "interrupted", "exit_code": 130}))
        sys.exit(130)

    for line in open(sys.argv[1]):
        line = line.rstrip("\n")
        word, _, rest = line.partition(" ")
        if word == "#sleep":
            time.sleep(float(rest))
        elif word == "#stdout":
            print(rest, flush=True)
        elif word == "#stderr":
            print(rest, file=sys.stderr, flush=True)
        elif word == "#trace":
            first, last = map(int, rest.split())
            path = os.path.join(config["trace_dir"], "rank0_cycle0.json")
            events = [{"ph": "X", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10 + i, "dur": 1}
                      for i in range(3)]
            with open(path, "w") as out:
                json.dump({"traceEvents": events}, out)
            send(json.dumps({"t": "trace", "rank": 0, "cycle": 0, "path": path,
                             "first_step": first, "last_step": last}))
        elif word == "#steps":
            count, rate = map(float, rest.split())
            send_steps(send, int(count), rate)
        elif word == "#interruptible":
            signal.signal(signal.SIGINT, interrupted)
        elif word == "#ignore-interrupt":
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        elif word == "#exit":
            sys.exit(int(rest))
        elif word == "#kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif line:
            send(line)


if __name__ == "__main__":
    main()
