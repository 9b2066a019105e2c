#!/usr/bin/env python3
"""A stop observer in Python, meeting the contract cursorhooks/observer meets in Node.

Cursor runs it as `stop-observer.py cursor-event stop --binding <selector>` with the stop
payload on stdin. It answers {} and a newline once and exits 0, whatever arrives.
"""
import json
import os
import signal
import subprocess
import sys
import threading

MAX_BYTES = 1024 * 1024  # MAX_STOP_PAYLOAD_BYTES
DEADLINE_S = 3.0  # under the entry's 5 s timeout
BOM = b"\xef\xbb\xbf"
STATUSES = ("completed", "aborted", "error")
answered = threading.Lock()


def answer_and_exit(*_):
    """Writes {} once, then exits 0 without waiting for anything still running."""
    if answered.acquire(blocking=False):
        try:
            os.write(1, b"{}\n")
        except OSError:
            pass  # Cursor closed stdout (EPIPE): nobody is left to read the answer
    os._exit(0)


def read_stdin():
    """At most MAX_BYTES + 1 bytes of stdin, or None when it is still open at the deadline."""
    chunks = []
    done = threading.Event()

    def reader():
        total = 0
        try:
            while total <= MAX_BYTES:
                chunk = os.read(0, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        except OSError:
            pass  # a read error ends the input where it failed
        done.set()

    # A daemon thread: a stdin Cursor holds open cannot keep the observer from exiting.
    threading.Thread(target=reader, daemon=True).start()
    return b"".join(chunks)[: MAX_BYTES + 1] if done.wait(DEADLINE_S) else None


def parse(data):
    """The payload when it is one JSON object in strict UTF-8, leading BOMs dropped; else None."""
    if len(data) > MAX_BYTES:
        return None
    while data.startswith(BOM):
        data = data[len(BOM):]
    try:
        payload = json.loads(data.decode("utf-8", errors="strict"))
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
        return None
    return payload if isinstance(payload, dict) else None


def observe():
    data = read_stdin()
    if data is None:
        return  # still open at the deadline: answer, do nothing
    payload = parse(data)
    args = sys.argv[1:]
    if len(args) != 4 or args[:3] != ["cursor-event", "stop", "--binding"] or not args[3]:
        sys.stderr.write("stop-observer: not run as cursor-event stop --binding <selector>\n")
        return
    status = payload.get("status") if payload else None
    status = status if status in STATUSES else "unknown"
    # The long work, detached, with none of Cursor's pipes: the stop is answered right after.
    log = args[3] + ".stops.log"
    subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "detached-work", log, status],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["detached-work"]:
        with open(sys.argv[2], "a", encoding="utf-8") as log:
            log.write(sys.argv[3] + "\n")
        sys.exit(0)
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), answer_and_exit)
    try:
        observe()
    except Exception as err:  # never fail the stop: the reason goes to the host's log
        sys.stderr.write(f"stop-observer: {err!r}\n")
    answer_and_exit()
