#!/usr/bin/env python3
"""Requests per second of one console page over N kept-alive connections.

Starts `arbiter serve --http` on a fresh ledger, opens N connections, and
has each ask for PATH again as soon as its last answer is whole, for
SECONDS (reads not rate-limited: --read-rate 0); then prints the requests
answered 200 per second, the other answers, the kept-alive connections the
server closed before their 100th request, the server's threads
(/proc/PID/task) at the end, and the server's CPU per answer.

Run: tests/bench/console_rps.py build/bin/arbiter [N=50] [SECONDS=10] [PATH=/static/hall.js]
"""
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time


async def client(host, port, path, until, counts):
    reader, writer = await asyncio.open_connection(host, port)
    cookie = b""  # the session the first answer opens (an open server's)
    while time.monotonic() < until:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n".encode() + cookie + b"\r\n")
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = re.search(rb"Content-Length: (\d+)", head, re.I)
            await reader.readexactly(int(length.group(1)) if length else 0)
        except (asyncio.IncompleteReadError, ConnectionError):
            # Closed by the server while kept alive: asked again on a new one.
            counts["closed"] += 1
            writer.close()
            reader, writer = await asyncio.open_connection(host, port)
            continue
        session = re.search(rb"Set-Cookie: ([^;\r]+)", head, re.I)
        if session:
            cookie = b"Cookie: " + session.group(1) + b"\r\n"
        status = head[9:12].decode()
        counts[status] = counts.get(status, 0) + 1
        if re.search(rb"Connection: close", head, re.I):  # 100 requests a connection
            writer.close()
            reader, writer = await asyncio.open_connection(host, port)
    writer.close()


async def load(host, port, path, n, seconds):
    counts = {"200": 0, "closed": 0}
    until = time.monotonic() + seconds
    await asyncio.gather(*(client(host, port, path, until, counts) for _ in range(n)))
    return counts


def cpu_seconds(pid):
    """The process's user and system time (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    arbiter = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10
    path = sys.argv[4] if len(sys.argv) > 4 else "/static/hall.js"
    with tempfile.TemporaryDirectory() as d:
        server = subprocess.Popen(
            [arbiter, "serve", "--db", d + "/data", "--listen", "127.0.0.1:0",
             "--http", "127.0.0.1:0", "--read-rate", "0"], stdout=subprocess.PIPE, text=True)
        try:
            for line in server.stdout:
                found = re.search(r"console on http://([0-9.]+):(\d+)/", line)
                if found:
                    break
            host, port = found.group(1), int(found.group(2))
            start, cpu = time.monotonic(), cpu_seconds(server.pid)
            counts = asyncio.run(load(host, port, path, n, seconds))
            took, cpu = time.monotonic() - start, cpu_seconds(server.pid) - cpu
            threads = len(os.listdir(f"/proc/{server.pid}/task"))
            other = {k: v for k, v in counts.items() if k not in ("200", "closed")}
            print(f"{path} at {n} connections: {counts['200'] / took:.0f} requests/s answered 200, "
                  f"others {other}, {counts['closed']} kept-alive connections closed, "
                  f"{threads} server threads, {cpu * 1e6 / max(counts['200'], 1):.0f} us of "
                  f"server CPU per answer")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
