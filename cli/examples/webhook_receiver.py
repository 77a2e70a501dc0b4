#!/usr/bin/env python3
"""A receiver of arbiter's webhooks (proto/DOMAIN.md, "Webhooks"): checks each
request's v1a signature (Ed25519, the server's whpk_ key) and timestamp, and
keeps each webhook-id once in a SQLite file. Python's standard library plus
`cryptography` (Debian: python3-cryptography). The proof in data.proof is
checked by `arbiter webhook verify --verifier-key ledger.vkey`.

  webhook_receiver.py --key whpk_... [--port 8080] [--db received.db]
"""
import argparse, base64, json, sqlite3, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

TOLERANCE = 300  # seconds between webhook-timestamp and now


def verified(key, headers, body):
    msg_id, ts = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "")
    if not ts.isdigit() or abs(time.time() - int(ts)) > TOLERANCE:
        return False
    signed = f"{msg_id}.{ts}.".encode() + body
    for sig in headers.get("webhook-signature", "").split():
        version, _, value = sig.partition(",")
        try:
            if version == "v1a":
                key.verify(base64.b64decode(value), signed)
                return True
        except (InvalidSignature, ValueError):
            continue
    return False


def main():
    args = argparse.ArgumentParser()
    args.add_argument("--key", required=True)
    args.add_argument("--port", type=int, default=8080)
    args.add_argument("--db", default="received.db")
    opts = args.parse_args()
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(opts.key.removeprefix("whpk_")))
    db = sqlite3.connect(opts.db, check_same_thread=False, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS received(id TEXT PRIMARY KEY, type TEXT, body BLOB)")

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if not verified(key, self.headers, body):
                self.send_response(401)
            else:  # a redelivery of an id kept already is taken again, stored once
                kind = json.loads(body)["type"]
                db.execute("INSERT OR IGNORE INTO received VALUES (?, ?, ?)",
                           (self.headers["webhook-id"], kind, body))
                self.send_response(204)
            self.end_headers()

    ThreadingHTTPServer(("127.0.0.1", opts.port), Hook).serve_forever()


if __name__ == "__main__":
    main()
