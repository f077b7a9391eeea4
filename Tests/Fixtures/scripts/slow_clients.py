"""Slow HTTP clients for the endpoint's bounds test: keeps up to N connections to a port
open for a number of seconds, each having sent only part of a request head, and opens a new
one whenever the server closes one. Prints what it did as one JSON line."""
import json
import selectors
import socket
import sys
import time

port, wanted, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
partial = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
selector = selectors.DefaultSelector()
opened = closed_by_server = failed = 0
peak = 0


def open_one():
    global opened, failed
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setblocking(False)
    try:
        client.connect_ex(("127.0.0.1", port))
        selector.register(client, selectors.EVENT_WRITE, "connecting")
        opened += 1
    except OSError:
        client.close()
        failed += 1


deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    # Open in batches, serving the open ones in between, so a slow machine still runs the
    # whole time with connections coming and going.
    batch = 0
    while len(selector.get_map()) < wanted and batch < 500:
        before = failed
        open_one()
        batch += 1
        if failed > before:
            break
    peak = max(peak, len(selector.get_map()))
    for key, _ in selector.select(timeout=0.05):
        client = key.fileobj
        if key.data == "connecting":
            try:
                client.send(partial)
                selector.modify(client, selectors.EVENT_READ, "waiting")
            except OSError:
                selector.unregister(client)
                client.close()
                closed_by_server += 1
        else:
            try:
                data = client.recv(4096)
            except OSError:
                data = b""
            if not data:
                selector.unregister(client)
                client.close()
                closed_by_server += 1

print(json.dumps({"opened": opened, "closed_by_server": closed_by_server, "failed": failed, "peak_open": peak}))
