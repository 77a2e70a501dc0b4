#!/usr/bin/env python3
"""An independent gRPC client probing auth and limits, from outside.

It knows the service only by its contract: the .proto files (compiled here,
at test time, into a temporary directory: nothing generated is committed),
.github/SECURITY.md, proto/arbiter/v1/access.proto and
adjudicator/service/README.md. It starts `arbiter serve` on a data folder of
its own, makes tokens with `arbiter token create`, and checks what those
documents promise: the status code of every method for every kind of
caller, the byte bounds, the caps on streams, the rates, malformed input,
and that a refusal writes nothing. Each check prints what it expected and
what it got; the run fails if any check does.

  tests/auth/grpc_probe.py --arbiter build/bin/arbiter [--source .]

Needs Debian's python3-grpcio and protoc (protobuf-compiler); without them it
exits 77 (ctest: skipped). Debian's python3-grpc-tools cannot compile these
protos: its protoc (3.5) predates proto3's `optional`.
"""

import argparse
import glob
import importlib
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import grpc
    from google.protobuf import descriptor_pool, message_factory, timestamp_pb2
except ImportError as e:  # pragma: no cover
    print(f"skipped: {e} (apt-get install python3-grpcio)")
    sys.exit(77)

SC = grpc.StatusCode
DEADLINE = 10.0  # seconds, for every call that is expected to answer

failures = []
checks = 0


def check(name, expected, got, ok):
    """One finding: what was expected, what came, whether they agree."""
    global checks
    checks += 1
    mark = "ok  " if ok else "FAIL"
    print(f"{mark} {name}: expected {expected}; got {got}", flush=True)
    if not ok:
        failures.append(name)


def short(s, n=160):
    s = str(s)
    return s if len(s) <= n else s[:n] + f"...({len(s)} chars)"


# ---------------------------------------------------------------------------
# The contract, compiled now


def compile_protos(source, out):
    protoc = shutil.which("protoc")
    if protoc is None:
        print("skipped: no protoc (apt-get install protobuf-compiler)")
        sys.exit(77)
    proto_root = os.path.join(source, "proto")
    arbiter = sorted(glob.glob(os.path.join(proto_root, "arbiter", "**", "*.proto"), recursive=True))
    subprocess.run([protoc, "-I", proto_root, f"--python_out={out}"] + arbiter, check=True)
    # The health, reflection and error-detail protos by their own folders:
    # their packages, grpc.* and google.rpc, would otherwise shadow the grpc
    # module itself and Debian's google.protobuf.
    for sub in ("grpc/health/v1", "grpc/reflection/v1alpha", "google/rpc"):
        d = os.path.join(proto_root, sub)
        subprocess.run([protoc, "-I", d, f"--python_out={out}"] +
                       sorted(glob.glob(os.path.join(d, "*.proto"))), check=True)
    sys.path.insert(0, out)


# ---------------------------------------------------------------------------
# The server and its tokens


class Server:
    def __init__(self, arbiter, data, flags=()):
        self.arbiter = arbiter
        self.data = data
        self.log = open(os.path.join(os.path.dirname(data), os.path.basename(data) + ".log"), "w+")
        self.proc = subprocess.Popen(
            [arbiter, "serve", "--db", data, "--listen", "127.0.0.1:0"] + list(flags),
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.address = None
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline and self.address is None:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            if not ready:
                break
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"listening on (\S+:\d+)", line)
            if m:
                self.address = m.group(1)
        if self.address is None:
            self.stop()
            raise RuntimeError(f"arbiter serve did not say where it listens (last line {line!r})")
        # The rest of stdout, drained so that the server never blocks on it.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.channel = grpc.insecure_channel(self.address, options=[
            ("grpc.max_send_message_length", 64 << 20),
            ("grpc.max_receive_message_length", 64 << 20),
            ("grpc.enable_retries", 0)])
        # Ready when health says SERVING, polled with a deadline.
        import health_pb2
        check_rpc = self.channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString)
        deadline = time.monotonic() + 30
        while True:
            try:
                r = check_rpc(health_pb2.HealthCheckRequest(), timeout=2)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("arbiter serve never said SERVING")
            time.sleep(0.05)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def alive(self):
        return self.proc.poll() is None


def token_create(arbiter, data, role, name, games=(), ttl=None):
    cmd = [arbiter, "token", "create", "--role", role, "--name", name, "--db", data]
    for g in games:
        cmd += ["--game", g]
    if ttl:
        cmd += ["--ttl", ttl]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    assert out.startswith("arb_"), out
    return out


def token_id(arbiter, data, name):
    out = subprocess.run([arbiter, "token", "list", "--db", data], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) > 2 and name in line:
            return fields[0]
    raise RuntimeError(f"no token named {name} in {out}")


# ---------------------------------------------------------------------------
# Calls, by the descriptors of the contract


class Client:
    def __init__(self, server, pb):
        self.server = server
        self.pb = pb

    def method(self, full):
        """(service descriptor, method descriptor) of "/pkg.Service/Method"."""
        service, method = full.strip("/").split("/")
        svc = self.pb.pool.FindServiceByName(service)
        return svc, svc.methods_by_name[method]

    def message(self, descriptor):
        return self.pb.message_class(descriptor)

    def md(self, token=None, extra=()):
        md = []
        if token is not None:
            md.append(("authorization", token if token.startswith(("Bearer", "bearer", "Basic"))
                       or token == "" else "Bearer " + token))
        return md + list(extra)

    def unary(self, full, request, token=None, raw=None, extra=(), timeout=DEADLINE, compression=None):
        """Calls a unary method; answers (code, message, response, trailers)."""
        _, m = self.method(full)
        out = self.message(m.output_type)
        call = self.server.channel.unary_unary(
            full, request_serializer=lambda b: b, response_deserializer=out.FromString)
        body = raw if raw is not None else request.SerializeToString()
        try:
            resp, c = call.with_call(body, metadata=self.md(token, extra), timeout=timeout,
                                     compression=compression)
            return SC.OK, "", resp, c.trailing_metadata()
        except grpc.RpcError as e:
            return e.code(), e.details() or "", None, e.trailing_metadata()

    def server_stream(self, full, request, token=None, raw=None, first_only=True, timeout=DEADLINE):
        """Opens a server stream and reads its first message (or its end)."""
        _, m = self.method(full)
        out = self.message(m.output_type)
        call = self.server.channel.unary_stream(
            full, request_serializer=lambda b: b, response_deserializer=out.FromString)
        body = raw if raw is not None else request.SerializeToString()
        it = call(body, metadata=self.md(token), timeout=timeout)
        try:
            first = next(it)
            if first_only:
                it.cancel()
            return SC.OK, "", first, it
        except StopIteration:
            return it.code(), it.details() or "", None, it
        except grpc.RpcError as e:
            return e.code(), e.details() or "", None, it

    def bidi(self, full, requests, token=None, timeout=DEADLINE):
        """Sends each request (message or raw bytes), reading every answer
        until the stream ends: (code, message, answers)."""
        _, m = self.method(full)
        out = self.message(m.output_type)
        call = self.server.channel.stream_stream(
            full, request_serializer=lambda b: b, response_deserializer=out.FromString)
        bodies = [r if isinstance(r, bytes) else r.SerializeToString() for r in requests]
        it = call(iter(bodies), metadata=self.md(token), timeout=timeout)
        answers = []
        try:
            for a in it:
                answers.append(a)
            return it.code(), it.details() or "", answers
        except grpc.RpcError as e:
            return e.code(), e.details() or "", answers


    def open_bidi(self, full, token=None, timeout=DEADLINE):
        """A stream left open, its requests sent one at a time: (answers, send),
        `send(message)` sending the next and `send(None)` half-closing; the
        answers are read from the iterator as they come."""
        import queue
        _, m = self.method(full)
        out = self.message(m.output_type)
        call = self.server.channel.stream_stream(
            full, request_serializer=lambda b: b, response_deserializer=out.FromString)
        pending = queue.Queue()

        def requests():
            while (item := pending.get()) is not None:
                yield item
        answers = call(requests(), metadata=self.md(token), timeout=timeout)
        return answers, lambda r: pending.put(None if r is None else r.SerializeToString())

class Pb:
    """The compiled contract: messages by name, from protoc's output."""

    def __init__(self):
        self.access = importlib.import_module("arbiter.v1.access_pb2")
        self.events = importlib.import_module("arbiter.v1.events_pb2")
        self.service = importlib.import_module("arbiter.v1.service_pb2")
        self.tournament = importlib.import_module("arbiter.v1.tournament_pb2")
        self.health = importlib.import_module("health_pb2")
        self.reflection = importlib.import_module("reflection_pb2")
        self.pool = descriptor_pool.Default()
        self._factory = message_factory.MessageFactory(self.pool)

    def message_class(self, descriptor):
        if hasattr(message_factory, "GetMessageClass"):  # protobuf 4.22 and later
            return message_factory.GetMessageClass(descriptor)
        return self._factory.GetPrototype(descriptor)

    def services(self):
        return [self.pool.FindServiceByName(n) for n in
                ("arbiter.v1.Arbiter", "arbiter.v1.TournamentService")]


# ---------------------------------------------------------------------------
# What the documents say each role holds (SECURITY.md "Roles", token create's
# help): every role reads every game; AUDIT for AUDITOR and CHIEF_ARBITER;
# RECORD for ARBITER (its games) and CHIEF_ARBITER; CREATE, ORGANISE,
# RULE_ON_APPEAL and CORRECT for CHIEF_ARBITER; SYNC for VENUE alone.

ROLE_ACCESS = {
    "ARBITER": {"READ", "RECORD"},
    "CHIEF_ARBITER": {"READ", "AUDIT", "RECORD", "CREATE", "ORGANISE", "RULE_ON_APPEAL", "CORRECT"},
    "AUDITOR": {"READ", "AUDIT"},
    "SOFTWARE": {"READ"},
    "VENUE": {"READ", "SYNC"},
}


def ts(seconds):
    return timestamp_pb2.Timestamp(seconds=seconds)


def error_details(trailing):
    """What a refusal's grpc-status-details-bin trailer carries, by the
    google.rpc messages' published names (AIP-193): {"code", "message",
    "ErrorInfo": msg}, or a string saying why there is nothing to read."""
    import error_details_pb2
    import status_pb2
    raw = dict(trailing or ()).get("grpc-status-details-bin")
    if raw is None:
        return "no grpc-status-details-bin trailer"
    status = status_pb2.Status.FromString(raw)
    out = {"code": status.code, "message": status.message}
    for detail in status.details:
        if detail.type_url == "type.googleapis.com/google.rpc.ErrorInfo":
            out["ErrorInfo"] = error_details_pb2.ErrorInfo.FromString(detail.value)
    return out


def error_info(trailing):
    """The trailer's details and its ErrorInfo, or None when it has none."""
    details = error_details(trailing)
    return details, details.get("ErrorInfo") if isinstance(details, dict) else None


T0 = 1_780_000_000  # 2026-05-28, before the server's clock: no skew guard
POINTS = [f"{col}{row}" for row in range(1, 20) for col in "ABCDEFGHJKLMNOPQRST"]


class Probe:
    def __init__(self, arbiter, source, tmp, pb):
        self.arbiter = arbiter
        self.source = source
        self.tmp = tmp
        self.pb = pb
        self.ev = pb.events
        self.sv = pb.service

    # -- helpers on the main server --------------------------------------

    def create_game(self, c, token, gid, black="Black", white="White", request_id=""):
        g = self.ev.GameCreated(game_id=gid, ruleset="cn-2002", board_size=19,
                                black=self.ev.Player(name=black), white=self.ev.Player(name=white),
                                venue=self.ev.GameCreated.SAME_SITE)
        out = c.unary("/arbiter.v1.Arbiter/CreateGame",
                      self.sv.CreateGameRequest(game=g, at=ts(T0), request_id=request_id), token)
        if out[0] == SC.OK and out[2].revision == 1:
            # Started at once, so that no lateness forfeit ends it.
            started = c.unary("/arbiter.v1.Arbiter/AppendEvents", self.sv.AppendEventsRequest(
                game=f"games/{gid}", events=[self.ev.Event(at=ts(T0 + 1), game_started=self.ev.GameStarted())]),
                token)
            assert started[0] == SC.OK, started
        return out

    def revision(self, c, token, gid):
        code, msg, resp, _ = c.unary("/arbiter.v1.Arbiter/GetGame",
                                     self.sv.GetGameRequest(name=f"games/{gid}"), token)
        assert code == SC.OK, (code, msg)
        return resp.revision

    def head(self, c, token):
        """The log's last position: WatchAll from 0 up to its caughtUp."""
        _, m = c.method("/arbiter.v1.Arbiter/WatchAll")
        out = c.message(m.output_type)
        call = c.server.channel.unary_stream(
            "/arbiter.v1.Arbiter/WatchAll", request_serializer=lambda b: b,
            response_deserializer=out.FromString)
        it = call(self.sv.WatchAllRequest(after_position=0).SerializeToString(),
                  metadata=c.md(token), timeout=DEADLINE)
        last = 0
        for r in it:
            if r.HasField("caught_up"):
                it.cancel()
                return r.caught_up.position
            last = r.event.position
        return last

    def events_between(self, c, token, after, upto):
        """The game and kind of each event at positions after..upto."""
        call = c.server.channel.unary_stream(
            "/arbiter.v1.Arbiter/WatchAll", request_serializer=lambda b: b,
            response_deserializer=self.sv.WatchResponse.FromString)
        it = call(self.sv.WatchAllRequest(after_position=after).SerializeToString(),
                  metadata=c.md(token), timeout=DEADLINE)
        out = []
        for r in it:
            if r.HasField("caught_up") or r.event.position > upto:
                it.cancel()
                break
            out.append(f"{r.event.game}#{r.event.revision} {r.event.event.WhichOneof('kind')}")
        return out

    def move(self, t, color, point, key=""):
        return self.ev.Event(at=ts(t), idempotency_key=key,
                             move=self.ev.Move(color=color, point=point))

    def append(self, c, token, gid, events, **kw):
        return c.unary("/arbiter.v1.Arbiter/AppendEvents",
                       self.sv.AppendEventsRequest(game=f"games/{gid}", events=events, **kw), token)

    # -- the matrix -------------------------------------------------------

    def request_for(self, method, game):
        """A minimal request of `method`, naming `game` in its game_scope
        field when it has one (access.proto: option (game_scope))."""
        req = self.pb.message_class(method.input_type)()
        scope = method.GetOptions().Extensions[self.pb.access.game_scope]
        if scope.WhichOneof("scope") == "field":
            setattr(req, scope.field, f"games/{game}")
        return req

    def call_any(self, c, method, req, token):
        full = f"/{method.containing_service.full_name}/{method.name}"
        if method.client_streaming:
            code, msg, _ = c.bidi(full, [req], token)
            return code, msg, None
        if method.server_streaming:
            code, msg, _, _ = c.server_stream(full, req, token)
            return code, msg, None
        code, msg, _, trailers = c.unary(full, req, token)
        return code, msg, trailers

    def matrix(self, c, tokens, secrets):
        pb = self.pb
        access_name = pb.access.Access.Name
        bad = {
            "no token": None,
            "empty authorization": "",
            "Basic scheme": "Basic " + secrets["CHIEF_ARBITER"],
            "Bearer without a token": "Bearer ",
            "not arb_": "Bearer xyz_" + "0" * 64,
            "arb_ short": "Bearer arb_1234",
            "arb_ and 64 letters not hex": "Bearer arb_" + "g" * 64,
            "unknown token": "Bearer arb_" + "0" * 64,
            "revoked": secrets["revoked"],
            "expired": secrets["expired"],
            "a token's hash, not the token": None,  # filled below
        }
        import hashlib
        bad["a token's hash, not the token"] = "Bearer " + hashlib.sha256(
            secrets["CHIEF_ARBITER"].encode()).hexdigest()
        methods = [m for s in pb.services() for m in s.methods]
        names = [f"{m.containing_service.name}.{m.name}" for m in methods]
        check("every method declares method_access and game_scope (access.proto)",
              "all declared", [n for n, m in zip(names, methods)
                               if not m.GetOptions().HasExtension(pb.access.method_access)
                               or not m.GetOptions().HasExtension(pb.access.game_scope)] or "all declared",
              all(m.GetOptions().HasExtension(pb.access.method_access)
                  and m.GetOptions().HasExtension(pb.access.game_scope) for m in methods))
        for m, name in zip(methods, names):
            access = access_name(m.GetOptions().Extensions[pb.access.method_access])
            req = self.request_for(m, "g1")
            for label, tok in bad.items():
                code, msg, trailers = self.call_any(c, m, req, tok)
                leaked = tok is not None and len(tok) > 12 and (
                    tok.split()[-1] in msg or any(tok.split()[-1] in str(v) for _, v in (trailers or ())))
                ok = code == SC.UNAUTHENTICATED and msg != "" and not leaked and len(msg) <= 1024
                if label == "expired":
                    ok = ok and "expired" in msg
                check(f"{name} [{access}] with {label}",
                      "UNAUTHENTICATED, a message, no secret echoed" +
                      (", saying it expired" if label == "expired" else ""),
                      f"{code.name} {short(msg)!r}" + (" SECRET ECHOED" if leaked else ""), ok)
            for role, tok in tokens.items():
                allowed = access in ROLE_ACCESS[role.split("@")[0]]
                # An ARBITER's RECORD is per game: g1 is its game, g2 not.
                game = "g2" if role == "ARBITER@other" else "g1"
                req = self.request_for(m, game)
                if role == "ARBITER@other":
                    # Outside its games an ARBITER reads (SECURITY.md: every
                    # role reads every game) and records nothing.
                    scope = m.GetOptions().Extensions[pb.access.game_scope]
                    if scope.WhichOneof("scope") != "field":
                        continue
                    allowed = access == "READ"
                code, msg, _ = self.call_any(c, m, req, tok)
                leaked = tok in msg
                if allowed:
                    ok = code not in (SC.UNAUTHENTICATED, SC.PERMISSION_DENIED, SC.UNIMPLEMENTED,
                                      SC.UNKNOWN, SC.INTERNAL) and not leaked
                    want = "admitted (any code but UNAUTHENTICATED/PERMISSION_DENIED/UNIMPLEMENTED/INTERNAL)"
                else:
                    ok = code == SC.PERMISSION_DENIED and msg != "" and not leaked
                    want = "PERMISSION_DENIED with a message"
                check(f"{name} [{access}] as {role}" + (f" in {game}" if role.startswith("ARBITER") else ""),
                      want, f"{code.name} {short(msg)!r}", ok)


# ---------------------------------------------------------------------------
# Refusals write nothing; who is recorded


def refusals_write_nothing(self, c):
    """SECURITY.md "Refusal writes nothing": UNAUTHENTICATED or
    PERMISSION_DENIED before the call reaches the ledger (its head does not
    move)."""
    sec = self.secrets
    chief = sec["CHIEF_ARBITER"]
    before = self.head(c, chief)
    B = self.ev.BLACK
    tries = [
        ("no token", None, "g1", SC.UNAUTHENTICATED),
        ("revoked", sec["revoked"], "g1", SC.UNAUTHENTICATED),
        ("expired", sec["expired"], "g1", SC.UNAUTHENTICATED),
        ("SOFTWARE", sec["SOFTWARE"], "g1", SC.PERMISSION_DENIED),
        ("AUDITOR", sec["AUDITOR"], "g1", SC.PERMISSION_DENIED),
        ("VENUE", sec["VENUE"], "g1", SC.PERMISSION_DENIED),
        ("ARBITER outside its game", sec["ARBITER"], "g2", SC.PERMISSION_DENIED),
    ]
    for label, tok, gid, want in tries:
        code, msg, _, _ = self.append(c, tok, gid, [self.move(T0 + 10, B, "Q16")])
        check(f"a valid move appended by {label}", want.name, f"{code.name} {short(msg)!r}", code == want)
    # A gameCreated through AppendEvents by an ARBITER (CREATE is the chief's).
    g = self.ev.GameCreated(game_id="g1x", ruleset="cn-2002", board_size=19)
    code, msg, _, _ = self.append(c, sec["ARBITER"], "g1", [self.ev.Event(at=ts(T0), game_created=g)])
    check("a gameCreated sent by an ARBITER through AppendEvents", "PERMISSION_DENIED",
          f"{code.name} {short(msg)!r}", code == SC.PERMISSION_DENIED)
    # An appealDecided (RULE_ON_APPEAL) and an eventVoided (CORRECT) by an ARBITER in its game.
    for kind, ev in (("appealDecided", self.ev.Event(at=ts(T0 + 10), appeal_decided=self.ev.AppealDecided(ruling=1, upheld=True))),
                     ("eventVoided", self.ev.Event(at=ts(T0 + 10), event_voided=self.ev.EventVoided(event=1, reason="typo"))),
                     ("gameCancelled", self.ev.Event(at=ts(T0 + 10), game_cancelled=self.ev.GameCancelled(reason="typo")))):
        code, msg, _, _ = self.append(c, sec["ARBITER"], "g1", [ev])
        check(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} sent by an ARBITER in its own game", "PERMISSION_DENIED",
              f"{code.name} {short(msg)!r}", code == SC.PERMISSION_DENIED)
    # An event with no kind at all: refused (an undeclared access).
    code, msg, _, _ = self.append(c, chief, "g1", [self.ev.Event(at=ts(T0 + 10))])
    check("an event with no kind, by the chief arbiter", "INVALID_ARGUMENT or PERMISSION_DENIED",
          f"{code.name} {short(msg)!r}", code in (SC.INVALID_ARGUMENT, SC.PERMISSION_DENIED))
    after = self.head(c, chief)
    check("the ledger head after every refused write", f"unchanged at {before}", after, after == before)


def refusal_reasons(self, c):
    """A refusal at the board carries its reason as a google.rpc.ErrorInfo
    (service README, "Refusals"): reason, domain arbiter.v1 and the facts
    the reason names, beside the English message; other refusals none."""
    chief = self.secrets["CHIEF_ARBITER"]
    code, msg, _, _ = self.create_game(c, chief, "why1")
    check("a game for the refusals", "OK", f"{code.name} {short(msg)!r}", code == SC.OK)
    arrival = self.ev.Event(at=ts(T0 + 10), player_arrived=self.ev.PlayerArrived(color=self.ev.WHITE))
    code, msg, _, md = self.append(c, chief, "why1", [arrival])
    details, info = error_info(md)
    got = details if info is None else f"{info.reason} {info.domain} {dict(info.metadata)}"
    check("White's arrival once the clocks run, nobody awaiting it", "INVALID_ARGUMENT",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    check("its google.rpc.ErrorInfo", "ARRIVAL_NOT_AWAITED arbiter.v1 {'color': 'WHITE'}", got,
          info is not None and info.reason == "ARRIVAL_NOT_AWAITED" and info.domain == "arbiter.v1"
          and dict(info.metadata) == {"color": "WHITE"})
    check("the details' own code and message", f"{code.value[0]} and the status's message",
          details if info is None else f"{details['code']} {short(details['message'])!r}",
          info is not None and details["code"] == code.value[0] and details["message"] == msg)
    late = self.move(T0 + 20, self.ev.BLACK, "Q16")
    code, msg, _, _ = self.append(c, chief, "why1", [late])
    earlier = self.ev.Event(at=ts(T0 + 15), phone_rang=self.ev.PhoneRang(color=self.ev.WHITE))
    code, msg, _, md = self.append(c, chief, "why1", [earlier])
    details, info = error_info(md)
    got = details if info is None else f"{info.reason} {dict(info.metadata)}"
    check("a phone's ring dated before the last move: its ErrorInfo", "TIME_BEFORE_PREVIOUS with at and previous",
          got, info is not None and info.reason == "TIME_BEFORE_PREVIOUS"
          and set(info.metadata) == {"at", "previous"})
    # A refusal with no reason to name (a token's) carries no details.
    code, msg, _, md = self.append(c, None, "why1", [self.move(T0 + 30, self.ev.WHITE, "D4")])
    details = error_details(md)
    check("an append without a token: its details", "UNAUTHENTICATED, no grpc-status-details-bin trailer",
          f"{code.name} {details if isinstance(details, str) else 'details'}",
          code == SC.UNAUTHENTICATED and isinstance(details, str))


Probe.refusal_reasons = refusal_reasons


def metadata_variants(self, c):
    """How the bearer token is read: one header, `Bearer <token>`."""
    sec = self.secrets
    chief, arbiter = sec["CHIEF_ARBITER"], sec["ARBITER"]
    req = self.sv.GetGameRequest(name="games/g1")
    for label, md in (
            ("lower-case scheme 'bearer'", [("authorization", "bearer " + chief)]),
            ("two spaces after Bearer", [("authorization", "Bearer  " + chief)]),
            ("a trailing space", [("authorization", "Bearer " + chief + " ")]),
            ("the token without a scheme", [("authorization", chief)]),
    ):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", req, token=None, extra=md)
        check(f"GetGame with {label}", "OK or UNAUTHENTICATED (never another role), no secret echoed",
              f"{code.name} {short(msg)!r}", code in (SC.OK, SC.UNAUTHENTICATED) and chief not in msg)
    # Two authorization headers: a call names one caller (SECURITY.md:
    # "Clients send authorization: Bearer <token> ..., once").
    before = self.revision(c, chief, "g2")
    for label, first, second in (("an ARBITER(g1) token and the chief's in a second header", arbiter, chief),
                                 ("the chief's token first and the ARBITER's second", chief, arbiter)):
        code, msg, resp, _ = c.unary(
            "/arbiter.v1.Arbiter/AppendEvents",
            self.sv.AppendEventsRequest(game="games/g2", events=[self.move(T0 + 10, self.ev.BLACK, "D4")],
                                        validate_only=True),
            token=None, extra=[("authorization", "Bearer " + first), ("authorization", "Bearer " + second)])
        check(f"a dry-run append to g2 with {label}",
              "UNAUTHENTICATED naming the 2 headers, no secret echoed", f"{code.name} {short(msg)!r}",
              code == SC.UNAUTHENTICATED and "2 authorization headers" in msg and "arb_" not in msg)
    check("g2's revision after two dry runs", f"unchanged at {before}", self.revision(c, chief, "g2"),
          self.revision(c, chief, "g2") == before)


def recorded_actor(self, c):
    """SECURITY.md "The recorded actor": whatever the client puts in actor
    and authority is overwritten with the authenticated caller."""
    sec = self.secrets
    ev = self.move(T0 + 20, self.ev.BLACK, "Q16", key="actor-1")
    ev.actor = "Wang Ru (CHIEF_ARBITER, token 00000000)"
    ev.authority = self.pb.access.CHIEF_ARBITER
    code, msg, resp, _ = self.append(c, sec["ARBITER"], "g1", [ev])
    check("an ARBITER's move claiming the chief's actor and authority", "OK",
          f"{code.name} {short(msg)!r}", code == SC.OK)
    if code != SC.OK:
        return
    got = resp.events[0].event
    check("its recorded actor", "Li Wei (ARBITER, token <id>)", got.actor,
          got.actor.startswith("Li Wei (ARBITER, token ") and "Wang Ru" not in got.actor)
    check("its recorded authority", "ARBITER", self.pb.access.Authority.Name(got.authority),
          got.authority == self.pb.access.ARBITER)
    check("no token secret in the recorded actor", "no arb_", got.actor, "arb_" not in got.actor)


Probe.refusals_write_nothing = refusals_write_nothing
Probe.metadata_variants = metadata_variants
Probe.recorded_actor = recorded_actor


# ---------------------------------------------------------------------------
# Bounds (adjudicator/service/README.md "Bounds", SECURITY.md "Limits")


def bounded(self, label, code, msg, path, value):
    """A refusal by a byte bound: INVALID_ARGUMENT naming the field's path,
    quoting at most 16 bytes of the value, in at most 1,024 bytes."""
    quoted_17 = value[:17] in msg if isinstance(value, str) and len(value) >= 17 else False
    ok = code == SC.INVALID_ARGUMENT and path in msg and not quoted_17 and len(msg.encode()) <= 1024
    check(label, f"INVALID_ARGUMENT naming {path}, quoting <= 16 bytes, <= 1024 bytes",
          f"{code.name} {short(msg)!r}" + (" (quotes 17+ bytes)" if quoted_17 else ""), ok)


def field_bounds(self, c):
    sec = self.secrets
    chief = sec["CHIEF_ARBITER"]
    E = self.ev
    B, W = E.BLACK, E.WHITE
    text = lambda n: ("abcdefghijklmnopqrstuvwxyz0123456789" * (n // 36 + 1))[:n]
    head = self.head(c, chief)

    # Names: 256 bytes; 257 refused. In bytes, not characters: 86 x 3-byte
    # characters are 258 bytes.
    code, msg, _, _ = self.create_game(c, chief, "b256", black=text(256))
    check("CreateGame with a 256-byte black name", "OK (at the bound)", f"{code.name} {short(msg)!r}",
          code == SC.OK)
    code, msg, _, _ = self.create_game(c, chief, "b257", black=text(257))
    self.bounded("CreateGame with a 257-byte black name", code, msg, "game.black.name", text(257))
    code, msg, _, _ = self.create_game(c, chief, "b258", white="李" * 86)
    self.bounded("CreateGame with a white name of 86 three-byte characters (258 bytes)", code, msg,
                 "game.white.name", "李" * 86)
    g = E.GameCreated(game_id="rk", ruleset="cn-2002", board_size=19, black=E.Player(name="B", rank=text(257)),
                      white=E.Player(name="W"))
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/CreateGame", self.sv.CreateGameRequest(game=g, at=ts(T0)), chief)
    self.bounded("CreateGame with a 257-byte rank", code, msg, "game.black.rank", text(257))
    # Keys: 128 bytes.
    code, msg, _, _ = self.create_game(c, chief, text(129))
    self.bounded("CreateGame with a 129-byte game id", code, msg, "game.gameId", text(129))
    code, msg, _, _ = self.create_game(c, chief, "rq", request_id=text(129))
    self.bounded("CreateGame with a 129-byte request id", code, msg, "requestId", text(129))
    code, msg, _, _ = self.append(c, chief, "g1", [self.move(T0 + 30, W, "D4", key=text(129))])
    self.bounded("a 129-byte idempotency key", code, msg, "events[0].idempotencyKey", text(129))
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/ListEvents",
                              self.sv.ListEventsRequest(game="games/g1", page_token=text(129)), chief)
    self.bounded("ListEvents with a 129-byte page token", code, msg, "pageToken", text(129))
    # Free text: 1,024 bytes.
    ev = E.Event(at=ts(T0 + 30), misconduct=E.Misconduct(color=W, kind=E.Misconduct.TALK, decision=text(1025)))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("a misconduct with a 1025-byte decision", code, msg, "events[0].misconduct.decision", text(1025))
    ev = E.Event(at=ts(T0 + 30), appeal_lodged=E.AppealLodged(ruling=1, by_color=W, grounds=text(1025)))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("an appeal with 1025 bytes of grounds", code, msg, "events[0].appealLodged.grounds", text(1025))
    ev = E.Event(at=ts(T0 + 30), event_voided=E.EventVoided(event=2, reason=text(1025)))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("an eventVoided with a 1025-byte reason", code, msg, "events[0].eventVoided.reason", text(1025))
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/Decide",
                              self.sv.DecideRequest(game="games/g1", ruling=1, choice="X", note=text(1025)), chief)
    self.bounded("Decide with a 1025-byte note", code, msg, "note", text(1025))
    # A status message stays under 1,024 bytes whatever the value's length.
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/Decide",
                              self.sv.DecideRequest(game="games/g1", ruling=1, choice="X", note=text(100_000)), chief)
    self.bounded("Decide with a 100,000-byte note", code, msg, "note", text(100_000))
    # Point lists: each point is a name (256 bytes).
    ev = E.Event(at=ts(T0 + 30), capture_error=E.CaptureError(color=W, kind=E.CaptureError.NOT_REMOVED,
                                                               points=["D4", text(257)]))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("a captureError whose second point is 257 bytes", code, msg,
                 "events[0].captureError.points[1]", text(257))
    ev = E.Event(at=ts(T0 + 30), stones_displaced=E.StonesDisplaced(
        points=[E.Displacement(**{"from": "D4", "to": text(257)})], agreement=E.StonesDisplaced.RESTORE, by_color=W))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("a stonesDisplaced whose to is 257 bytes", code, msg, "events[0].stonesDisplaced.points[0].to",
                 text(257))
    ev = E.Event(at=ts(T0 + 30), dead_stones=E.DeadStones(points=[text(257)]))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    self.bounded("a deadStones whose point is 257 bytes", code, msg, "events[0].deadStones.points[0]", text(257))
    # An event: 16 KiB. 80 points of 250 bytes, each under its own bound.
    ev = E.Event(at=ts(T0 + 30), capture_error=E.CaptureError(color=W, kind=E.CaptureError.NOT_REMOVED,
                                                               points=[text(250)] * 80))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    check("an event of 20 KB (80 points of 250 bytes)", "INVALID_ARGUMENT naming events[0]",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT and "events[0]" in msg)
    # Many points, each tiny: 16 KiB reached by count (a flood of one point).
    ev = E.Event(at=ts(T0 + 30), capture_error=E.CaptureError(color=W, kind=E.CaptureError.NOT_REMOVED,
                                                               points=["A1"] * 5000))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    check("a captureError naming A1 5000 times (20 KB)", "INVALID_ARGUMENT",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    # A batch: 1000 events, 1 MiB.
    evs = [E.Event(at=ts(T0 + 30 + i), **{"pass": E.Pass(color=B if i % 2 == 0 else W)}) for i in range(1001)]
    code, msg, _, _ = self.append(c, chief, "g1", evs)
    check("a batch of 1001 events", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT)
    # 80 events of 15 KB each (under 16 KiB): 1.2 MB together.
    evs = [E.Event(at=ts(T0 + 30 + i), capture_error=E.CaptureError(
        color=W, kind=E.CaptureError.NOT_REMOVED, points=[text(250)] * 60)) for i in range(80)]
    code, msg, _, _ = self.append(c, chief, "g1", evs)
    check("a batch of 80 events of 15 KB (1.2 MB, over 1 MiB)", "INVALID_ARGUMENT naming the batch's bytes",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT and msg.startswith("events:") and "bytes" in msg)
    # Tournament strings: 256.
    T = self.pb.tournament
    req = T.CreateTournamentRequest(tournament=T.TournamentCreated(tournament_id="t1", title=text(257)))
    code, msg, _, _ = c.unary("/arbiter.v1.TournamentService/CreateTournament", req, chief)
    self.bounded("CreateTournament with a 257-byte title", code, msg, "tournament.title", text(257))
    # Resource names: 256.
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", self.sv.GetGameRequest(name="games/" + text(300)),
                              sec["SOFTWARE"])
    self.bounded("GetGame of a 306-byte name", code, msg, "name", "games/" + text(300))
    after = self.head(c, chief)
    check("the ledger head after the bounds' refusals", f"{head} + 2 (the 256-byte name's game, started)",
          f"{after}: {self.events_between(c, chief, head, after)}", after == head + 2)


Probe.bounded = bounded
Probe.field_bounds = field_bounds


def message_limits(self, c):
    sec = self.secrets
    sw = sec["SOFTWARE"]
    big = self.sv.GetGameRequest(name="games/" + "a" * (5 << 20))
    for label, tok in (("a SOFTWARE token", sw), ("no token", None)):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", big, tok)
        check(f"a 5 MiB GetGame request with {label}", "RESOURCE_EXHAUSTED (SECURITY.md: refused before decoding)",
              f"{code.name} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
    # Compressed requests: UNIMPLEMENTED by their headers, token or none.
    small = self.sv.GetGameRequest(name="games/g1")
    for label, tok in (("a SOFTWARE token", sw), ("no token", None)):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", small, tok, compression=grpc.Compression.Gzip)
        check(f"a gzip-compressed GetGame with {label}", "UNIMPLEMENTED", f"{code.name} {short(msg)!r}",
              code == SC.UNIMPLEMENTED)
    # Metadata: bounded by gRPC alone (SECURITY.md, not covered). What the
    # server answers for 64 KiB of headers, and that it goes on serving.
    # On a connection of its own: gRPC may close the one that carried it.
    padded = Client(type("Alone", (), {"channel": grpc.insecure_channel(c.server.address)})(), self.pb)
    code, msg, _, _ = padded.unary("/arbiter.v1.Arbiter/GetGame", small, sw, extra=[("x-pad", "p" * (64 << 10))])
    padded.server.channel.close()
    check("GetGame with a 64 KiB header", "refused, not served", f"{code.name} {short(msg)!r}", code != SC.OK)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", small, sw)
    check("GetGame after the big header", "OK", f"{code.name} {short(msg)!r}", code == SC.OK)


Probe.message_limits = message_limits


def malformed(self, c):
    sec = self.secrets
    chief, sw = sec["CHIEF_ARBITER"], sec["SOFTWARE"]
    E = self.ev
    B, W = E.BLACK, E.WHITE
    head = self.head(c, chief)
    # Bytes that do not parse.
    for label, raw in (("truncated varint", b"\x0a\xff"), ("a string that is not UTF-8", b"\x0a\x02\xff\xfe"),
                       ("a wire type 7", b"\x0f")):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", None, sw, raw=raw)
        check(f"GetGame with {label}", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
              code == SC.INVALID_ARGUMENT)
        if label == "a string that is not UTF-8":
            continue  # WatchAllRequest has no string: its field 1 read as unknown
        code, msg, _, _ = c.server_stream("/arbiter.v1.Arbiter/WatchAll", None, sw, raw=raw)
        check(f"WatchAll with {label}", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
              code == SC.INVALID_ARGUMENT)
    # Nested too deeply: an AppendEventsRequest whose event holds unknown
    # groups (field 999) nested 120 levels; 480 bytes, a 2-byte length.
    deep = b"\xbb\x3e" * 120 + b"\xbc\x3e" * 120
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/AppendEvents", None, chief,
                              raw=b"\x0a\x08games/g1\x12" + bytes([len(deep) & 127 | 128, len(deep) >> 7]) + deep)
    check("an event holding unknown groups nested 120 deep", "INVALID_ARGUMENT (does not parse) or refused",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    # Unknown enum values (README "Status codes": INVALID_ARGUMENT).
    ev = E.Event(at=ts(T0 + 40), move=E.Move(color=7, point="K10"))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    check("a move by colour 7", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    ev = E.Event(at=ts(T0 + 40), misconduct=E.Misconduct(color=W, kind=99))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    check("a misconduct of kind 99", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/ExportGame", self.sv.ExportGameRequest(name="games/g1", format=42),
                              sec["AUDITOR"])
    check("ExportGame in format 42", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    g = E.GameCreated(game_id="venue99", ruleset="cn-2002", board_size=19, black=E.Player(name="B"),
                      white=E.Player(name="W"), venue=99)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/CreateGame", self.sv.CreateGameRequest(game=g, at=ts(T0)), chief)
    check("CreateGame at venue 99", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    # Unknown fields in an event: not stored (the signed bytes hold what the
    # contract defines) or refused.
    self.create_game(c, chief, "u1")
    ev = E.Event(at=ts(T0 + 40), move=E.Move(color=B, point="K10"), idempotency_key="unknown-field")
    raw = self.sv.AppendEventsRequest(game="games/u1").SerializeToString()
    evb = ev.SerializeToString() + b"\xba\x3e\x05hello"  # field 999, bytes
    raw += b"\x12" + bytes([len(evb)]) + evb
    code, msg, resp, _ = c.unary("/arbiter.v1.Arbiter/AppendEvents", None, chief, raw=raw)
    kept = code == SC.OK and b"hello" in resp.SerializeToString()
    if code == SC.OK:
        # Nor in the signed record: the audit bundle holds the event's bytes.
        c2, m2, bundle, _ = c.unary("/arbiter.v1.Arbiter/ExportGame", self.sv.ExportGameRequest(
            name="games/u1", format=self.sv.ExportGameRequest.BUNDLE), sec["AUDITOR"])
        kept = kept or c2 != SC.OK or b"hello" in bundle.content
    check("an event carrying an unknown field 999", "refused, or recorded without it (answer and bundle)",
          f"{code.name} {short(msg)!r}" + (" (the unknown field came back)" if kept else ""),
          code in (SC.INVALID_ARGUMENT, SC.OK) and not kept)
    head = self.head(c, chief)
    # Malformed names.
    for name in ("games/", "games/g1/extra", "g1", "games/../g1", "games/g1\x00", "games/ g1", "GAMES/g1"):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", self.sv.GetGameRequest(name=name), sw)
        check(f"GetGame of {name!r}", "INVALID_ARGUMENT or NOT_FOUND", f"{code.name} {short(msg)!r}",
              code in (SC.INVALID_ARGUMENT, SC.NOT_FOUND))
    # An ARBITER of g1 writing to a name that only resembles g1.
    for name in ("games/g1/../g2", "games/G1", "games/g1 ", "games/g1\x00"):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/AppendEvents", self.sv.AppendEventsRequest(
            game=name, events=[self.move(T0 + 40, W, "K10")]), sec["ARBITER"])
        check(f"an ARBITER of g1 appending to {name!r}", "INVALID_ARGUMENT, NOT_FOUND or PERMISSION_DENIED",
              f"{code.name} {short(msg)!r}", code in (SC.INVALID_ARGUMENT, SC.NOT_FOUND, SC.PERMISSION_DENIED))
    # Player names that are blank or hold control characters.
    # (service.proto, CreateGame: blank, or holding a control character.)
    for label, name in (("a NUL", "Li\x00Wei"), ("CR LF", "Li\r\nWei"), ("a forged line", "Li Wei\nRESULT: W+R"),
                        ("a tab", "Li\tWei"), ("an escape sequence", "\x1b[31mLi"),
                        ("only a zero-width space", "\u200b"), ("only spaces", "   "),
                        ("only a right-to-left override", "\u202e")):
        code, msg, _, _ = self.create_game(c, chief, "ctl-" + label.replace(" ", "-"), black=name)
        raw = any(ord(ch) < 0x20 or ch == "\x7f" for ch in msg)
        check(f"CreateGame with a black name of {label}",
              "INVALID_ARGUMENT naming game.black.name, no raw control character in the message",
              f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT and "black.name" in msg and not raw)
    # Times: far ahead, out of range.
    code, msg, _, _ = self.append(c, chief, "g1", [self.move(int(time.time()) + 86400 * 365, W, "K10")])
    check("a move dated a year ahead, without replay", "INVALID_ARGUMENT naming the time",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    ev = E.Event(at=ts(253402300800 + 10), move=E.Move(color=W, point="K10"))
    code, msg, _, _ = self.append(c, chief, "g1", [ev], replay=True)
    check("a move dated after year 9999 (replay)", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT)
    ev = E.Event(at=timestamp_pb2.Timestamp(seconds=T0 + 40, nanos=1_500_000_000), move=E.Move(color=W, point="K10"))
    code, msg, _, _ = self.append(c, chief, "g1", [ev])
    check("a move with nanos of 1.5 s", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT)
    # CreateGame and Decide have no `replay`: a time far ahead is refused.
    g = E.GameCreated(game_id="ahead", ruleset="cn-2002", board_size=19, black=E.Player(name="B"),
                      white=E.Player(name="W"), venue=E.GameCreated.SAME_SITE)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/CreateGame", self.sv.CreateGameRequest(
        game=g, at=ts(int(time.time()) + 86400 * 365)), chief)
    check("CreateGame stamped a year ahead", "INVALID_ARGUMENT naming the time", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/Decide", self.sv.DecideRequest(
        game="games/g1", ruling=1, choice="WARNING", at=ts(int(time.time()) + 86400 * 365)), chief)
    check("Decide stamped a year ahead", "INVALID_ARGUMENT or NOT_FOUND (there is no ruling 1), nothing recorded",
          f"{code.name} {short(msg)!r}", code in (SC.INVALID_ARGUMENT, SC.NOT_FOUND))
    # Watching from past the end; a page token that is not one.
    code, msg, _, _ = c.server_stream("/arbiter.v1.Arbiter/WatchGame",
                                      self.sv.WatchGameRequest(game="games/g1", after_revision=10**9), sw)
    check("WatchGame after revision 10^9", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT)
    code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/ListEvents",
                              self.sv.ListEventsRequest(game="games/g1", page_token="not-a-token"), sw)
    check("ListEvents with a made-up page token", "INVALID_ARGUMENT", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT)
    code, msg, resp, _ = c.unary("/arbiter.v1.Arbiter/ListEvents",
                                 self.sv.ListEventsRequest(game="games/g1", page_size=-5), sw)
    check("ListEvents with page_size -5", "INVALID_ARGUMENT, or the default page",
          f"{code.name} {short(msg)!r}", code in (SC.INVALID_ARGUMENT, SC.OK))
    # What does not exist: NOT_FOUND (or INVALID_ARGUMENT for a number out of range).
    aud = sec["AUDITOR"]
    for label, full, req, tok in (
            ("GetGame of games/nosuch", "/arbiter.v1.Arbiter/GetGame", self.sv.GetGameRequest(name="games/nosuch"), sw),
            ("VerifyGame of games/nosuch", "/arbiter.v1.Arbiter/VerifyGame",
             self.sv.VerifyGameRequest(name="games/nosuch"), aud),
            ("Decide of ruling 999 in g1", "/arbiter.v1.Arbiter/Decide",
             self.sv.DecideRequest(game="games/g1", ruling=999, choice="WARNING"), chief),
            ("GetInclusionProof of revision 999 in g1", "/arbiter.v1.Arbiter/GetInclusionProof",
             self.sv.GetInclusionProofRequest(game="games/g1", revision=999), sw),
            ("GetClause of cn-2002/99.9", "/arbiter.v1.Arbiter/GetClause", self.sv.GetClauseRequest(clause="cn-2002/99.9"), sw),
            ("GetRuleset of rulesets/nosuch", "/arbiter.v1.Arbiter/GetRuleset",
             self.sv.GetRulesetRequest(name="rulesets/nosuch"), sw),
            ("AppendEvents to games/nosuch", "/arbiter.v1.Arbiter/AppendEvents", self.sv.AppendEventsRequest(
                game="games/nosuch", events=[self.move(T0 + 10, B, "D4")]), chief)):
        code, msg, _, _ = c.unary(full, req, tok)
        check(label, "NOT_FOUND or INVALID_ARGUMENT, with a message", f"{code.name} {short(msg)!r}",
              code in (SC.NOT_FOUND, SC.INVALID_ARGUMENT) and msg != "")
    code, msg, resp, _ = c.unary("/arbiter.v1.Arbiter/ListEvents",
                                 self.sv.ListEventsRequest(game="games/g1", page_size=5000), sw)
    check("ListEvents with page_size 5000", "OK (capped at 1000) or INVALID_ARGUMENT",
          f"{code.name} {short(msg)!r}", code in (SC.OK, SC.INVALID_ARGUMENT))
    # A batch with a bad event in the middle: nothing of it recorded.
    self.create_game(c, chief, "m1")
    head = self.head(c, chief)
    rev = self.revision(c, chief, "m1")
    evs = [self.move(T0 + 50, B, "C3"), self.move(T0 + 51, W, "C3"), self.move(T0 + 52, B, "R3")]
    code, msg, _, _ = self.append(c, chief, "m1", evs)
    check("a batch whose second move is on an occupied point", "INVALID_ARGUMENT naming events[1]",
          f"{code.name} {short(msg)!r}", code == SC.INVALID_ARGUMENT and "events[1]" in msg)
    check("m1's revision after it", f"unchanged at {rev}", self.revision(c, chief, "m1"),
          self.revision(c, chief, "m1") == rev)
    after = self.head(c, chief)
    check("the ledger head after the malformed requests", f"unchanged at {head}", after, after == head)


Probe.malformed = malformed


def idempotency(self, c):
    chief = self.secrets["CHIEF_ARBITER"]
    E = self.ev
    W, B = E.WHITE, E.BLACK
    self.create_game(c, chief, "i1")
    self.create_game(c, chief, "i2")
    first = [self.move(T0 + 60, B, "C4", key="idem-1"), self.move(T0 + 61, W, "C5", key="idem-2")]
    code, msg, resp, _ = self.append(c, chief, "i1", first)
    check("two keyed moves", "OK", f"{code.name} {short(msg)!r}", code == SC.OK)
    positions = [e.position for e in resp.events] if resp else []
    code, msg, resp, _ = self.append(c, chief, "i1", first, expected_revision=0)
    check("the same batch again (with a stale expected_revision)", "OK with the original positions",
          f"{code.name} {[e.position for e in resp.events] if resp else short(msg)}",
          code == SC.OK and [e.position for e in resp.events] == positions)
    rev = self.revision(c, chief, "i1")
    changed = [self.move(T0 + 62, B, "D4", key="idem-1")]
    code, msg, _, _ = self.append(c, chief, "i1", changed)
    check("key idem-1 again with another point", "ALREADY_EXISTS", f"{code.name} {short(msg)!r}",
          code == SC.ALREADY_EXISTS)
    mixed = [self.move(T0 + 60, B, "C4", key="idem-1"), self.move(T0 + 62, B, "C6", key="idem-3")]
    code, msg, _, _ = self.append(c, chief, "i1", mixed)
    check("a batch of a recorded key and a new one", "refused (ALREADY_EXISTS or INVALID_ARGUMENT: not a whole retry), nothing recorded",
          f"{code.name} {short(msg)!r}; revision {self.revision(c, chief, 'i1')}",
          code in (SC.ALREADY_EXISTS, SC.INVALID_ARGUMENT) and self.revision(c, chief, "i1") == rev)
    # The same key in another game is that game's own (keys are per game).
    code, msg, _, _ = self.append(c, chief, "i2", [self.move(T0 + 60, B, "Q4", key="idem-1")])
    check("key idem-1 in game g2", "OK (keys are per game)", f"{code.name} {short(msg)!r}", code == SC.OK)
    # CreateGame retried with the same request id and content, then other content.
    code1, msg1, _, _ = self.create_game(c, chief, "idem-g", request_id="create-1")
    code2, msg2, _, _ = self.create_game(c, chief, "idem-g", request_id="create-1")
    check("CreateGame retried with its request id", "OK twice", f"{code1.name}, {code2.name} {short(msg2)!r}",
          code1 == SC.OK and code2 == SC.OK)
    code, msg, _, _ = self.create_game(c, chief, "idem-g", black="Someone else", request_id="create-1")
    check("CreateGame with that request id and another black", "ALREADY_EXISTS", f"{code.name} {short(msg)!r}",
          code == SC.ALREADY_EXISTS)
    # A dry run consumes no key.
    code, msg, _, _ = self.append(c, chief, "i2", [self.move(T0 + 70, W, "R16", key="dry-1")], validate_only=True)
    code2, msg2, resp, _ = self.append(c, chief, "i2", [self.move(T0 + 70, W, "R17", key="dry-1")])
    check("a key used by a dry run, then by a real append of other content", "OK, OK",
          f"{code.name}, {code2.name} {short(msg2)!r}", code == SC.OK and code2 == SC.OK)


Probe.idempotency = idempotency


def stream_batches(self, c):
    """RecordEvents: a bad request in the middle ends the stream with its
    status; what was answered before stands; nothing of it or after it."""
    chief = self.secrets["CHIEF_ARBITER"]
    E = self.ev
    W, B = E.WHITE, E.BLACK
    code, msg, _, _ = self.create_game(c, chief, "s1")
    rev = self.revision(c, chief, "s1")
    req = lambda evs: self.sv.AppendEventsRequest(game="games/s1", events=evs)
    good1 = req([self.move(T0 + 10, B, "D4")])
    bad = req([self.move(T0 + 11, W, "D4"), self.move(T0 + 12, B, "E4")])
    good2 = req([self.move(T0 + 13, W, "Q4")])
    code, msg, answers = c.bidi("/arbiter.v1.Arbiter/RecordEvents", [good1, bad, good2], chief)
    check("RecordEvents: good, a batch on an occupied point, good", "INVALID_ARGUMENT after 1 answer",
          f"{code.name} after {len(answers)} {short(msg)!r}", code == SC.INVALID_ARGUMENT and len(answers) == 1)
    check("s1's revision after it", f"{rev + 1} (the first request only)", self.revision(c, chief, "s1"),
          self.revision(c, chief, "s1") == rev + 1)
    rev = rev + 1
    # A request that does not parse in the middle (README: ends the stream
    # OK like a half-close; nothing of it or after it recorded).
    good3 = req([self.move(T0 + 14, W, "Q16")])
    good4 = req([self.move(T0 + 15, B, "Q3")])
    code, msg, answers = c.bidi("/arbiter.v1.Arbiter/RecordEvents", [good3, b"\x12\xff", good4], chief)
    check("RecordEvents: good, bytes that do not parse, good",
          "the stream ends after 1 answer, not OK-with-every-answer",
          f"{code.name} after {len(answers)} {short(msg)!r}", len(answers) == 1)
    check("s1's revision after it", f"{rev + 1} (the first request only)", self.revision(c, chief, "s1"),
          self.revision(c, chief, "s1") == rev + 1)
    # A request for a game the ARBITER does not hold, in the middle of its stream.
    arb = self.secrets["ARBITER"]
    g1, g2 = self.revision(c, chief, "g1"), self.revision(c, chief, "g2")
    code, msg, answers = c.bidi("/arbiter.v1.Arbiter/RecordEvents", [
        self.sv.AppendEventsRequest(game="games/g1", events=[self.ev.Event(at=ts(T0 + 100), phone_rang=E.PhoneRang(color=W))]),
        self.sv.AppendEventsRequest(game="games/g2", events=[self.ev.Event(at=ts(T0 + 100), phone_rang=E.PhoneRang(color=W))])],
        arb)
    check("an ARBITER's stream: its game, then another's", "PERMISSION_DENIED after 1 answer",
          f"{code.name} after {len(answers)} {short(msg)!r}", code == SC.PERMISSION_DENIED and len(answers) == 1)
    got = (self.revision(c, chief, "g1") - g1, self.revision(c, chief, "g2") - g2)
    check("events recorded by that stream in g1, g2", "(1, 0)", got, got == (1, 0))


Probe.stream_batches = stream_batches


def stream_caps(self, c):
    """Two watch streams per caller, three on the server; health watches
    take no place; the same for RecordEvents (serve flags of this run)."""
    sec = self.secrets
    sw, aud, chief = sec["SOFTWARE"], sec["AUDITOR"], sec["CHIEF_ARBITER"]
    health, serving = [], 0
    for _ in range(4):
        call = c.server.channel.unary_stream("/grpc.health.v1.Health/Watch",
                                             request_serializer=lambda b: b,
                                             response_deserializer=self.pb.health.HealthCheckResponse.FromString)
        it = call(self.pb.health.HealthCheckRequest().SerializeToString(), timeout=DEADLINE)
        serving += next(it).status == self.pb.health.HealthCheckResponse.SERVING
        health.append(it)
    check("4 health watches without a token", "each says SERVING", f"{serving} of 4", serving == 4)
    open_streams = []

    def watch(tok):
        code, msg, first, it = c.server_stream("/arbiter.v1.Arbiter/WatchAll", self.sv.WatchAllRequest(),
                                               tok, first_only=False)
        if code == SC.OK:
            open_streams.append(it)
        return code, msg

    r = [watch(sw), watch(sw)]
    check("2 WatchAll of one SOFTWARE token (cap 2 per caller)", "OK, OK", [x[0].name for x in r],
          all(x[0] == SC.OK for x in r))
    code, msg = watch(sw)
    check("its 3rd WatchAll", "RESOURCE_EXHAUSTED", f"{code.name} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
    code, msg = watch(aud)
    check("an AUDITOR's 1st WatchAll (3rd on the server, cap 3)", "OK", f"{code.name} {short(msg)!r}",
          code == SC.OK)
    code, msg = watch(aud)
    check("the AUDITOR's 2nd (4th on the server)", "RESOURCE_EXHAUSTED", f"{code.name} {short(msg)!r}",
          code == SC.RESOURCE_EXHAUSTED)
    # One closed: its place is free again (waited for, with a deadline).
    open_streams.pop(0).cancel()
    deadline = time.monotonic() + 10
    while True:
        code, msg = watch(sw)
        if code == SC.OK or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    check("a SOFTWARE WatchAll once one of its two is cancelled", "OK (within 10 s)",
          f"{code.name} {short(msg)!r}", code == SC.OK)
    for it in open_streams + health:
        it.cancel()
    # RecordEvents: each stream proves itself open with a dry run answered.
    E = self.ev

    def recorder(tok):
        it, send = c.open_bidi("/arbiter.v1.Arbiter/RecordEvents", tok)
        send(self.sv.AppendEventsRequest(game="games/g1", validate_only=True, events=[
            E.Event(at=ts(T0 + 200), phone_rang=E.PhoneRang(color=E.WHITE))]))
        try:
            next(it)
            return SC.OK, "", (it, send)
        except grpc.RpcError as e:
            return e.code(), e.details(), None

    recs = []
    for i in range(2):
        code, msg, h = recorder(chief)
        recs.append(h)
        check(f"the chief arbiter's RecordEvents stream {i + 1} (cap 2 per caller)", "OK (a dry run answered)",
              f"{code.name} {short(msg)!r}", code == SC.OK)
    code, msg, _ = recorder(chief)
    check("its 3rd RecordEvents", "RESOURCE_EXHAUSTED", f"{code.name} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
    for h in recs:
        if h:
            h[1](None)
            for _ in h[0]:
                pass


Probe.stream_caps = stream_caps


def deadlines(self, c):
    """A call cut off by its deadline: recorded whole or not at all."""
    chief = self.secrets["CHIEF_ARBITER"]
    E = self.ev
    code, msg, _, _ = self.create_game(c, chief, "d1")
    rev = self.revision(c, chief, "d1")
    evs = [self.move(T0 + 10 + i, E.BLACK if i % 2 == 0 else E.WHITE, p, key=f"dl-{i}")
           for i, p in enumerate(["D4", "Q16", "D16", "Q4", "K10"])]
    code, msg, _, _ = c.unary(
        "/arbiter.v1.Arbiter/AppendEvents", self.sv.AppendEventsRequest(game="games/d1", events=evs), chief,
        timeout=0.0005)
    mid = self.revision(c, chief, "d1")
    check("a 5-event batch with a 0.5 ms deadline", "DEADLINE_EXCEEDED or OK; 0 or 5 events recorded",
          f"{code.name}; {mid - rev} recorded", code in (SC.DEADLINE_EXCEEDED, SC.OK) and mid - rev in (0, 5))
    code, msg, resp, _ = self.append(c, chief, "d1", evs)
    check("the batch retried with the same keys", "OK, 5 events in all",
          f"{code.name}; {self.revision(c, chief, 'd1') - rev} recorded",
          code == SC.OK and self.revision(c, chief, "d1") - rev == 5)


Probe.deadlines = deadlines


def rates(self):
    """SECURITY.md "Rate": per caller buckets; beyond them RESOURCE_EXHAUSTED
    and nothing written; refused calls charged to the read rate."""
    a = self.arbiter
    data = os.path.join(self.tmp, "rates")
    chief = token_create(a, data, "CHIEF_ARBITER", "Wang Ru")
    sw = token_create(a, data, "SOFTWARE", "Scoreboard")
    server = Server(a, data, ["--write-rate", "5", "--read-rate", "10"])
    try:
        c = Client(server, self.pb)
        E = self.ev
        code, msg, _, _ = self.create_game(c, chief, "r1")
        writes, last, msg, refused_md = 0, SC.OK, "", None
        for i in range(200):
            code, msg, _, refused_md = self.append(c, chief, "r1", [self.move(
                T0 + 10 + i, E.BLACK if i % 2 == 0 else E.WHITE, POINTS[i], key=f"rate-{i}")])
            if code != SC.OK:
                last = code
                break
            writes += 1
        check("appends by one token at --write-rate 5", "RESOURCE_EXHAUSTED within 200 calls",
              f"{last.name} after {writes} {short(msg)!r}", last == SC.RESOURCE_EXHAUSTED)
        # Nothing of the refused append written: its key is unknown.
        code2, msg2, resp, _ = c.unary("/arbiter.v1.Arbiter/ListEvents",
                                       self.sv.ListEventsRequest(game="games/r1", page_size=1000), sw)
        keys = [e.event.idempotency_key for e in resp.events] if resp else []
        check("the rate-refused append's key in the game", f"absent (rate-{writes})",
              f"{code2.name} {len(keys)} events", code2 == SC.OK and f"rate-{writes}" not in keys)
        # The refusal says when the next write is allowed, and it is.
        wait = re.search(r"the next is allowed in (\d+) ms", msg or "")
        check("the rate refusal's wait", "at most 200 ms (5 writes a second)", short(msg),
              wait is not None and 1 <= int(wait.group(1)) <= 200)
        # gRPC's cancellation, which ends the call before its request is read,
        # carries no details: the wait is in the message alone.
        check("the rate refusal's details", "none (grpc_status.h)", error_details(refused_md),
              error_details(refused_md) == "no grpc-status-details-bin trailer")
        if wait is not None:
            time.sleep(int(wait.group(1)) / 1000 + 0.02)
            code3, msg3, _, _ = self.append(c, chief, "r1", [self.move(
                T0 + 10 + writes, E.BLACK if writes % 2 == 0 else E.WHITE, POINTS[writes],
                key=f"rate-{writes}")])
            check("the refused append retried after that wait", "OK", f"{code3.name} {short(msg3)!r}",
                  code3 == SC.OK)
        # Refused calls are charged: no token, to the peer host.
        n, code = 0, SC.OK
        for n in range(1, 301):
            code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/GetGame", self.sv.GetGameRequest(name="games/r1"), None)
            if code != SC.UNAUTHENTICATED:
                break
        check("calls without a token at --read-rate 10", "RESOURCE_EXHAUSTED within 300",
              f"{code.name} after {n} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
        for n in range(1, 301):
            code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/AppendEvents", self.sv.AppendEventsRequest(
                game="games/r1", events=[E.Event(at=ts(T0 + 999), phone_rang=E.PhoneRang(color=E.WHITE))]), sw)
            if code != SC.PERMISSION_DENIED:
                break
        check("a SOFTWARE token's refused appends at --read-rate 10", "RESOURCE_EXHAUSTED within 300",
              f"{code.name} after {n} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
    finally:
        server.stop()


Probe.rates = rates


def other_services(self, c):
    """Health needs no token; reflection needs one of any role; a method
    no one declared is refused."""
    sw = self.secrets["SOFTWARE"]
    H = self.pb.health
    code, msg, resp, _ = c.unary("/grpc.health.v1.Health/Check", H.HealthCheckRequest(), None)
    check("Health/Check without a token", "OK, SERVING",
          f"{code.name} {H.HealthCheckResponse.ServingStatus.Name(resp.status) if resp else short(msg)}",
          code == SC.OK and resp.status == H.HealthCheckResponse.SERVING)
    R = self.pb.reflection
    for label, tok, want in (("no token", None, SC.UNAUTHENTICATED), ("a revoked token", self.secrets["revoked"],
                             SC.UNAUTHENTICATED), ("a SOFTWARE token", sw, SC.OK)):
        code, msg, answers = c.bidi("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                                    [R.ServerReflectionRequest(list_services="")], tok)
        listed = [x.name for a in answers for x in a.list_services_response.service]
        check(f"server reflection with {label}", want.name + (" listing arbiter.v1.Arbiter" if want == SC.OK else ""),
              f"{code.name} {short(msg)!r} {listed}",
              code == want and (want != SC.OK or "arbiter.v1.Arbiter" in listed))
    for full in ("/arbiter.v1.Arbiter/DeleteGame", "/arbiter.v1.Admin/Tokens"):
        for label, tok in (("no token", None), ("the chief arbiter's token", self.secrets["CHIEF_ARBITER"])):
            call = c.server.channel.unary_unary(full, request_serializer=lambda b: b,
                                                response_deserializer=lambda b: b)
            try:
                call(b"", metadata=c.md(tok), timeout=DEADLINE)
                code, msg = SC.OK, ""
            except grpc.RpcError as e:
                code, msg = e.code(), e.details()
            check(f"{full}, a method no one declared, with {label}",
                  "refused (PERMISSION_DENIED, UNAUTHENTICATED or UNIMPLEMENTED)", f"{code.name} {short(msg)!r}",
                  code in (SC.PERMISSION_DENIED, SC.UNAUTHENTICATED, SC.UNIMPLEMENTED))


Probe.other_services = other_services


def tournament_files(self, c):
    """ImportTournament takes an OpenGotha file (up to the message limit):
    a file that is not one, an XML bomb, an external entity. Each refused
    with a clear error, nothing written, the server unharmed."""
    chief = self.secrets["CHIEF_ARBITER"]
    T = self.pb.tournament
    with open(os.path.join(self.source, "tests", "tournament", "data", "swiss4.xml"), "rb") as f:
        good = f.read()
    head = self.head(c, chief)
    laughs = b'<!DOCTYPE Tournament [<!ENTITY l0 "lol">' + b"".join(
        b'<!ENTITY l%d "%s">' % (i, (b"&l%d;" % (i - 1)) * 10) for i in range(1, 10)) + b"]>"
    bomb = good.replace(b"<Tournament ", laughs + b"<Tournament ", 1).replace(b'name="Li"', b'name="&l9;"', 1)
    xxe = good.replace(b"<Tournament ", b'<!DOCTYPE Tournament [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                       b"<Tournament ", 1).replace(b'name="Li"', b'name="&x;"', 1)
    xxe_text = good.replace(b"<Tournament ", b'<!DOCTYPE Tournament [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                            b"<Tournament ", 1).replace(b"<Players>", b"<Players>&x;", 1)
    for label, xml in (("bytes that are not XML", b"\x00\xff not xml <<<"), ("an empty file", b""),
                       ("a billion-laughs entity bomb", bomb), ("an external entity in a name", xxe),
                       ("an external entity in content", xxe_text), ("a file cut in half", good[:len(good) // 2])):
        started = time.monotonic()
        code, msg, resp, _ = c.unary("/arbiter.v1.TournamentService/ImportTournament",
                                     T.ImportTournamentRequest(tournament_id="imp", opengotha_xml=xml), chief)
        took = time.monotonic() - started
        leaked = "root:" in msg or (resp is not None and b"root:" in resp.SerializeToString())
        # A hang or a blow-up ends at the call's deadline (DEADLINE_EXCEEDED):
        # the bound is the client's, not a timing of the server.
        check(f"ImportTournament of {label}",
              f"INVALID_ARGUMENT with a message within the {DEADLINE:.0f} s deadline, nothing of /etc/passwd",
              f"{code.name} in {took:.2f} s {short(msg)!r}" + (" (LEAKED /etc/passwd)" if leaked else ""),
              code == SC.INVALID_ARGUMENT and msg != "" and not leaked)
    after = self.head(c, chief)
    check("the ledger head after the refused imports", f"unchanged at {head}", after, after == head)
    code, msg, listed, _ = c.unary("/arbiter.v1.TournamentService/ListTournaments", T.ListTournamentsRequest(), chief)
    check("the tournaments after the refused imports", "no tournaments/imp",
          f"{code.name} {list(listed.names) if listed else short(msg)}",
          code == SC.OK and "tournaments/imp" not in listed.names)
    code, msg, resp, _ = c.unary("/arbiter.v1.TournamentService/ImportTournament",
                                 T.ImportTournamentRequest(tournament_id="imp", opengotha_xml=good), chief)
    check("ImportTournament of tests/tournament/data/swiss4.xml itself", "OK", f"{code.name} {short(msg)!r}",
          code == SC.OK)
    # The tournament's record is at most 2 MiB (the service README, "Bounds"):
    # 12,000 players of 200-byte names (2.6 MB, under the message limit).
    before = len(resp.players) if resp else 0
    players = [T.TournamentPlayer(id=f"x{i}", name="n" * 200, rank="1K") for i in range(12000)]
    started = time.monotonic()
    code, msg, _, _ = c.unary("/arbiter.v1.TournamentService/AddPlayers", T.AddPlayersRequest(
        tournament="tournaments/imp", players=players), chief)
    took = time.monotonic() - started
    code2, msg2, t, _ = c.unary("/arbiter.v1.TournamentService/GetTournament",
                                T.GetTournamentRequest(name="tournaments/imp"), self.secrets["SOFTWARE"])
    check("AddPlayers of 12,000 players with 200-byte names (a record past 2 MiB)",
          f"INVALID_ARGUMENT within the {DEADLINE:.0f} s deadline, the tournament still of {before} players",
          f"{code.name} in {took:.1f} s {short(msg)!r}; {len(t.players) if t else short(msg2)} players",
          code == SC.INVALID_ARGUMENT and t is not None and len(t.players) == before)
    # And at most 10,000 players (the same table): 10,001 of tiny names fit
    # the bytes but not the count; up to the count, a read answers within
    # the call's deadline (how fast is a benchmark's to say, not a probe's:
    # under a sanitizer it takes seconds).
    tiny = [T.TournamentPlayer(id=f"y{i}", name="n", rank="1K") for i in range(10001 - before)]
    code, msg, _, _ = c.unary("/arbiter.v1.TournamentService/AddPlayers", T.AddPlayersRequest(
        tournament="tournaments/imp", players=tiny), chief)
    check(f"AddPlayers of {len(tiny)} players with 1-byte names (10,001 in all)",
          "INVALID_ARGUMENT naming the bound of 10000 players", f"{code.name} {short(msg)!r}",
          code == SC.INVALID_ARGUMENT and "at most 10000" in msg)
    code, msg, _, _ = c.unary("/arbiter.v1.TournamentService/AddPlayers", T.AddPlayersRequest(
        tournament="tournaments/imp", players=tiny[:-1]), chief)
    started = time.monotonic()
    code2, msg2, t, _ = c.unary("/arbiter.v1.TournamentService/GetTournament",
                                T.GetTournamentRequest(name="tournaments/imp"), self.secrets["SOFTWARE"])
    took = time.monotonic() - started
    check("AddPlayers up to 10,000 players, then GetTournament",
          f"OK, 10000 players read within the {DEADLINE:.0f} s deadline",
          f"{code.name} {short(msg)!r}; {len(t.players) if t else short(msg2)} players in {took:.2f} s",
          code == SC.OK and t is not None and len(t.players) == 10000)


Probe.tournament_files = tournament_files


def revocation(self, c):
    """SECURITY.md: tokens are looked up on every call, so a revocation
    through the CLI beside the running server applies to its next call; a
    RecordEvents stream's next request is UNAUTHENTICATED (nothing of it
    recorded); a watch ends UNAUTHENTICATED before its next message, at
    most a second after."""
    a, data = self.arbiter, self.data
    chief = self.secrets["CHIEF_ARBITER"]
    E = self.ev
    code, msg, _, _ = self.create_game(c, chief, "rv")
    rec = token_create(a, data, "ARBITER", "Revoked mid-stream", games=["rv"])
    watcher = token_create(a, data, "SOFTWARE", "Revoked watcher")
    stream, send = c.open_bidi("/arbiter.v1.Arbiter/RecordEvents", rec)
    wcall = c.server.channel.unary_stream("/arbiter.v1.Arbiter/WatchAll", request_serializer=lambda b: b,
                                          response_deserializer=self.sv.WatchResponse.FromString)
    watch = wcall(self.sv.WatchAllRequest().SerializeToString(), metadata=c.md(watcher), timeout=DEADLINE)
    for r in watch:
        if r.HasField("caught_up"):
            break
    send(self.sv.AppendEventsRequest(game="games/rv", events=[self.move(T0 + 10, E.BLACK, "D4")]))
    first = next(stream)
    check("an ARBITER's RecordEvents before its token is revoked", "answered", len(first.events), len(first.events) == 1)
    for tok_name in ("Revoked mid-stream", "Revoked watcher"):
        subprocess.run([a, "token", "revoke", token_id(a, data, tok_name), "--db", data], check=True,
                       capture_output=True)
    revoked = time.monotonic()
    rev = self.revision(c, chief, "rv")
    send(self.sv.AppendEventsRequest(game="games/rv", events=[self.move(T0 + 11, E.WHITE, "Q16")]))
    try:
        extra = list(stream)
        code, msg = stream.code(), stream.details()
    except grpc.RpcError as e:
        extra, code, msg = [], e.code(), e.details()
    send(None)
    check("its next request once the token is revoked (the CLI, beside the server)",
          "UNAUTHENTICATED, nothing of it recorded",
          f"{code.name} {short(msg)!r}; {len(extra)} more answers; revision {self.revision(c, chief, 'rv')}",
          code == SC.UNAUTHENTICATED and not extra and self.revision(c, chief, "rv") == rev)
    # The watch: events keep coming (a game created each time) until it
    # ends; it must end, UNAUTHENTICATED.
    got, i = 0, 0
    deadline = time.monotonic() + 8
    code, msg = None, ""
    while code is None and time.monotonic() < deadline:
        g = E.GameCreated(game_id=f"rv-{i}", ruleset="cn-2002", board_size=19, black=E.Player(name="B"),
                          white=E.Player(name="W"), venue=E.GameCreated.SAME_SITE)
        w, why, _, _ = c.unary("/arbiter.v1.Arbiter/CreateGame", self.sv.CreateGameRequest(game=g, at=ts(T0)), chief)
        assert w == SC.OK, (w, why)
        i += 1
        try:
            r = next(watch)
            got += 1
        except StopIteration:
            code, msg = watch.code(), watch.details()
        except grpc.RpcError as e:
            code, msg = e.code(), e.details()
    ended = time.monotonic() - revoked
    check("a watch whose token is revoked while it is open",
          "ends UNAUTHENTICATED, a second after (under 3 s here, for slow builds)",
          f"{code.name if code else 'still open'} after {got} more events, {ended:.2f} s {short(msg)!r}",
          code == SC.UNAUTHENTICATED and ended < 3)
    watch.cancel()


Probe.revocation = revocation


def webhooks(self, c):
    """service.proto AddWebhook: INVALID_ARGUMENT for a URL not http(s), an
    unknown kind, a secret not in whsec_ form; a listing never holds a
    secret (SECURITY.md "Outbound webhooks")."""
    chief = self.secrets["CHIEF_ARBITER"]
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    for label, url, kinds, sec in (
            ("a file: URL", "file:///etc/passwd", ["game.result"], ""),
            ("a gopher: URL", "gopher://127.0.0.1:25/", ["game.result"], ""),
            ("a URL with a line break", "https://example.org/\r\nX-Injected: 1", ["game.result"], ""),
            ("an unknown kind", "https://example.org/hook", ["game.everything"], ""),
            ("a secret not in whsec_ form", "https://example.org/hook", ["game.result"], "hunter2"),
            ("a 257-byte URL", "https://example.org/" + "a" * 237, ["game.result"], "")):
        code, msg, _, _ = c.unary("/arbiter.v1.Arbiter/AddWebhook", self.sv.AddWebhookRequest(
            url=url, kinds=kinds, secret=sec), chief)
        check(f"AddWebhook with {label}", "INVALID_ARGUMENT, the secret not echoed", f"{code.name} {short(msg)!r}",
              code == SC.INVALID_ARGUMENT and (not sec or sec not in msg))
    code, msg, hook, _ = c.unary("/arbiter.v1.Arbiter/AddWebhook", self.sv.AddWebhookRequest(
        url="https://example.org/hook", kinds=["game.result"], secret=secret), chief)
    check("AddWebhook of https://example.org/hook with a whsec_ secret", "OK, has_secret, the secret not in the answer",
          f"{code.name} {short(msg)!r}",
          code == SC.OK and hook.has_secret and secret.encode() not in hook.SerializeToString())
    code, msg, listed, _ = c.unary("/arbiter.v1.Arbiter/ListWebhooks", self.sv.ListWebhooksRequest(), chief)
    check("ListWebhooks", "the endpoint, never its secret", f"{code.name} {len(listed.webhooks) if listed else msg}",
          code == SC.OK and len(listed.webhooks) == 1 and secret.encode() not in listed.SerializeToString()
          and secret[6:].encode() not in listed.SerializeToString())


Probe.webhooks = webhooks


class StalledWatch:
    """A WatchAll over a bare HTTP/2 connection that never reads: its
    SETTINGS give the server a stream window of 0 bytes, and it sends no
    WINDOW_UPDATE, so every message the server has for it waits (grpcio
    itself reads whatever arrives). It answers only SETTINGS and PING."""

    def __init__(self, address, token):
        import socket
        import struct
        self.struct = struct
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=DEADLINE)
        self.buf = b""

        def literal(name, value):  # HPACK: literal, not indexed, no Huffman
            name, value = name.encode(), value.encode()
            assert len(name) < 127 and len(value) < 127
            return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value
        headers = b"".join(literal(n, v) for n, v in (
            (":method", "POST"), (":scheme", "http"), (":path", "/arbiter.v1.Arbiter/WatchAll"),
            (":authority", address), ("content-type", "application/grpc"), ("te", "trailers"),
            ("authorization", "Bearer " + token)))
        out = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        out += self.frame(4, 0, 0, struct.pack(">HI", 4, 0))  # SETTINGS_INITIAL_WINDOW_SIZE = 0
        out += self.frame(1, 4, 1, headers)                    # HEADERS, END_HEADERS, stream 1
        out += self.frame(0, 1, 1, b"\x00\x00\x00\x00\x00")    # an empty WatchAllRequest, END_STREAM
        self.sock.sendall(out)

    def frame(self, kind, flags, stream, payload):
        return self.struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + self.struct.pack(">I", stream) + payload

    def next_frame(self, deadline):
        while len(self.buf) < 9 or len(self.buf) < 9 + int.from_bytes(self.buf[:3], "big"):
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        n = int.from_bytes(self.buf[:3], "big")
        kind, flags, stream = self.buf[3], self.buf[4], int.from_bytes(self.buf[5:9], "big") & 0x7FFFFFFF
        payload, self.buf = self.buf[9:9 + n], self.buf[9 + n:]
        return kind, flags, stream, payload

    def wait_headers(self, seconds):
        """Whether the server answered stream 1's headers (it does once the
        call is admitted and its first message is on its way)."""
        return self.wait_end(seconds, headers=True)[0] == "headers"

    def wait_end(self, seconds, headers=False):
        """How stream 1 ended ("RST_STREAM", "trailers grpc-status N",
        "GOAWAY") and any DATA bytes it got, or None if it did not end
        within `seconds`."""
        deadline = time.monotonic() + seconds
        data = 0
        import socket
        try:
            while time.monotonic() < deadline:
                f = self.next_frame(deadline)
                if f is None:
                    return "connection closed", data
                kind, flags, stream, payload = f
                if kind == 4 and not flags & 1:
                    self.sock.sendall(self.frame(4, 1, 0, b""))  # SETTINGS ACK
                elif kind == 6 and not flags & 1:
                    self.sock.sendall(self.frame(6, 1, 0, payload))  # PING ACK
                elif kind == 0 and stream == 1:
                    data += len(payload)
                elif kind == 3 and stream == 1:
                    return f"RST_STREAM {int.from_bytes(payload[:4], 'big')}", data
                elif kind == 1 and stream == 1 and flags & 1:
                    # The server writes grpc-status as a plain literal.
                    m = re.search(rb"grpc-status(.)(\d+)", payload)
                    return f"trailers grpc-status {m.group(2).decode() if m else '?'}", data
                elif kind == 1 and stream == 1 and headers:
                    return "headers", data
                elif kind == 7:
                    return "GOAWAY", data
        except socket.timeout:
            pass
        return None, data

    def close(self):
        self.sock.close()


def stalled_watch(self):
    """SECURITY.md "Watchers": a client that stops reading cannot keep its
    stream and its place under the caps: once a message has waited
    --watch-stall for it, the server cancels the stream and frees the
    place."""
    a = self.arbiter
    data = os.path.join(self.tmp, "stall")
    sw = token_create(a, data, "SOFTWARE", "Stalled scoreboard")
    server = Server(a, data, ["--watch-stall", "1s", "--watchers-per-caller", "1"])
    try:
        c = Client(server, self.pb)
        started = time.monotonic()
        stalled = StalledWatch(server.address, sw)
        admitted = stalled.wait_headers(10)
        check("a WatchAll over a bare HTTP/2 connection with a stream window of 0", "admitted (response headers)",
              "headers" if admitted else "no headers", admitted)
        # Its place is taken: the caller's second watch is refused.
        code, msg, _, _ = c.server_stream("/arbiter.v1.Arbiter/WatchAll", self.sv.WatchAllRequest(), sw)
        check("a second watch of a caller whose one place a never-reading stream holds (cap 1)",
              "RESOURCE_EXHAUSTED", f"{code.name} {short(msg)!r}", code == SC.RESOURCE_EXHAUSTED)
        how, got = stalled.wait_end(15)
        took = time.monotonic() - started
        check("that watch, which reads nothing, under --watch-stall 1s",
              "CANCELLED by the server after about 1 s (0.9 to 15), no data sent",
              f"{how or 'still open'} after {took:.1f} s, {got} bytes",
              how in ("trailers grpc-status 1", "RST_STREAM 8") and 0.9 <= took < 15 and got == 0)
        stalled.close()
        deadline = time.monotonic() + 10
        while True:
            code, msg, _, _ = c.server_stream("/arbiter.v1.Arbiter/WatchAll", self.sv.WatchAllRequest(), sw)
            if code == SC.OK or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        check("the caller's watch once the stalled one is cut off", "OK (its place freed)",
              f"{code.name} {short(msg)!r}", code == SC.OK)
    finally:
        server.stop()


Probe.stalled_watch = stalled_watch


def open_server(self):
    """SECURITY.md "Zero-config local default": without any token the
    server runs open, and then refuses to listen beyond loopback."""
    data = os.path.join(self.tmp, "open")
    p = subprocess.Popen([self.arbiter, "serve", "--db", data, "--listen", "0.0.0.0:0"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        err = "(still serving after 20 s) " + err
    check("arbiter serve with no token on 0.0.0.0", "refused at start (non-zero exit, saying why)",
          f"exit {p.returncode}: {short(err.strip())!r}", p.returncode not in (0, -9) and err.strip() != "")


Probe.open_server = open_server




def probe_run(self):
    a = self.arbiter
    data = os.path.join(self.tmp, "main")
    secrets = {
        "CHIEF_ARBITER": token_create(a, data, "CHIEF_ARBITER", "Wang Ru"),
        "ARBITER": token_create(a, data, "ARBITER", "Li Wei", games=["g1"]),
        "AUDITOR": token_create(a, data, "AUDITOR", "Federation audit"),
        "SOFTWARE": token_create(a, data, "SOFTWARE", "Scoreboard"),
        "VENUE": token_create(a, data, "VENUE", "Venue sync"),
        "revoked": token_create(a, data, "CHIEF_ARBITER", "Revoked chief"),
        "expired": token_create(a, data, "CHIEF_ARBITER", "Expired chief", ttl="1ms"),
    }
    subprocess.run([a, "token", "revoke", token_id(a, data, "Revoked chief"), "--db", data],
                   check=True, capture_output=True)
    self.data = data
    server = Server(a, data, ["--watchers-per-caller", "2", "--watchers", "3",
                              "--recorders-per-caller", "2", "--recorders", "3",
                              "--watch-stall", "1s"])
    try:
        c = Client(server, self.pb)
        chief = secrets["CHIEF_ARBITER"]
        for gid in ("g1", "g2"):
            code, msg, _, _ = self.create_game(c, chief, gid)
            assert code == SC.OK, (gid, code, msg)
        tokens = {r: secrets[r] for r in ROLE_ACCESS}
        tokens["ARBITER@other"] = secrets["ARBITER"]
        self.secrets = secrets
        self.matrix(c, tokens, secrets)
        self.refusals_write_nothing(c)
        self.refusal_reasons(c)
        self.metadata_variants(c)
        self.recorded_actor(c)
        self.other_services(c)
        self.webhooks(c)
        self.field_bounds(c)
        self.message_limits(c)
        self.malformed(c)
        self.idempotency(c)
        self.stream_batches(c)
        self.stream_caps(c)
        self.deadlines(c)
        self.revocation(c)
        # Last: a tournament's import goes on writing after its answer (its
        # standings), which the head counts above would see.
        self.tournament_files(c)
        check("the main server is still serving", "alive", "alive" if server.alive() else "exited",
              server.alive())
    finally:
        server.stop()
    self.rates()
    self.stalled_watch()
    self.open_server()


Probe.run = probe_run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    args = ap.parse_args()
    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="arbiter-grpc-probe-")
    try:
        gen = os.path.join(tmp, "gen")
        os.makedirs(gen)
        compile_protos(os.path.abspath(args.source), gen)
        Probe(os.path.abspath(args.arbiter), args.source, tmp, Pb()).run()
    finally:
        if failures or sys.exc_info()[0] is not None:
            for log in sorted(glob.glob(os.path.join(tmp, "*.log"))):
                with open(log) as f:
                    print(f"--- {os.path.basename(log)} (the server's stderr), last lines:")
                    print("".join(f.readlines()[-20:]))
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks} checks, {len(failures)} failed, {time.monotonic() - started:.1f} s")
    for f in failures:
        print(f"failed: {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
