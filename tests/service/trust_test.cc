// Issue 13, "trust at the edges", tried as an integrator and an attacker
// would: a real `arbiter serve`, a gRPC client that knows only the
// contract, and the `arbiter` binary. Retries of stamped requests, keys per
// game, board facts, the unsigned tail.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger/hash.h"
#include "ledger/sqlite.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using grpc::StatusCode;

template <typename F>
grpc::Status Call(F f) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  return f(&ctx);
}

// Waits until the clock (the server's too: one machine) reads a millisecond
// past `t`: a stamp taken from then on is later than any taken by `t`.
void AwaitClockPast(absl::Time t) {
  while (absl::Now() <= t + absl::Milliseconds(1)) absl::SleepFor(absl::Milliseconds(1));
}

// 2. CreateGame and Decide with a request_id and no `at`: the server stamps
// its clock the first time; the retry gets the original acknowledgement, not
// ALREADY_EXISTS.
TEST(TrustTest, RetriesOfServerStampedRequestsGetTheOriginalAck) {
  auto stub = Stub();
  v1::CreateGameRequest create;
  create.mutable_game()->set_game_id("stamped-1");
  create.mutable_game()->set_board_size(19);
  create.mutable_game()->mutable_black()->set_name("Black");
  create.mutable_game()->mutable_white()->set_name("White");
  create.set_request_id("create-stamped-1");
  v1::Game first, again;
  ASSERT_TRUE(Call([&](auto* c) { return stub->CreateGame(c, create, &first); }).ok());
  AwaitClockPast(absl::Now());  // the server stamped the first before it answered
  const grpc::Status retried = Call([&](auto* c) { return stub->CreateGame(c, create, &again); });
  ASSERT_TRUE(retried.ok()) << retried.error_code() << ": " << retried.error_message();
  EXPECT_EQ(again.revision(), 1u);

  // The game goes on (its own clock: times after the stamped creation).
  const absl::Time t = absl::Now();
  v1::Event talk = At(t + absl::Milliseconds(200));
  talk.mutable_misconduct()->set_color(v1::BLACK);
  talk.mutable_misconduct()->set_kind(v1::Misconduct::TALK);
  v1::AppendEventsResponse appended;
  ASSERT_TRUE(Append(*stub, "stamped-1",
                     {Started(t), MoveAt(t + absl::Milliseconds(100), v1::BLACK, "Q16"), talk},
                     &appended)
                  .ok());
  ASSERT_FALSE(appended.events(2).rulings().empty());
  const uint32_t pending = appended.events(2).rulings(0).number();

  v1::DecideRequest decide;
  decide.set_game("games/stamped-1");
  decide.set_ruling(pending);
  decide.set_choice("WARNING");
  decide.set_request_id("decide-stamped-1");
  v1::AppendEventsResponse decided, decided_again;
  AwaitClockPast(t + absl::Milliseconds(200));  // past the talk: the stamp is the server's now
  ASSERT_TRUE(Call([&](auto* c) { return stub->Decide(c, decide, &decided); }).ok());
  AwaitClockPast(absl::Now());
  const grpc::Status redecided =
      Call([&](auto* c) { return stub->Decide(c, decide, &decided_again); });
  ASSERT_TRUE(redecided.ok()) << redecided.error_code() << ": " << redecided.error_message();
  EXPECT_EQ(decided_again.events(0).SerializeAsString(), decided.events(0).SerializeAsString())
      << "the original acknowledgement: same event, position, revision and rulings";
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "stamped-1", &game).ok());
  EXPECT_EQ(game.revision(), 5u) << "the retry recorded nothing";

  // Another decision under the same key is not a retry.
  decide.set_choice("LOSS");
  EXPECT_EQ(Call([&](auto* c) { return stub->Decide(c, decide, &decided_again); }).error_code(),
            StatusCode::ALREADY_EXISTS);

  // The same through the binary: `--request-id` is safely retryable.
  for (int i = 0; i < 2; ++i) {
    const ProcessResult r = RunCli({"game", "create", "--id", "stamped-cli", "--request-id",
                                    "create-stamped-cli", "--black", "B", "--white", "W"},
                                   "", ServerEnvironment::address());
    EXPECT_EQ(r.exit, 0) << "attempt " << i + 1 << ": " << r.err;
  }
}

// 2. Keys belong to their game's stream: a writer of one game cannot plant
// the key `arbiter record` derives for another game's line and so make that
// game's recording fail.
TEST(TrustTest, AnotherGamesKeyCannotBlockARecording) {
  auto stub = Stub();
  const std::string line = absl::StrCat(
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "victim-1", "ruleset": "cn-2002",)",
      R"( "boardSize": 19}})");
  // What `arbiter record` derives for line 1 of the victim's file.
  const std::string victim_key =
      absl::StrCat("record/victim-1/1/", ToHex(Sha256(line)).substr(0, 16));
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(
      Append(*stub, "attacker-1", {Keyed(Created("attacker-1", T0()), victim_key)}, &resp).ok());

  const ProcessResult r = RunCli({"record", "-"}, line + "\n", ServerEnvironment::address());
  EXPECT_EQ(r.exit, 0) << r.err;
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "victim-1", &game).ok());
  EXPECT_EQ(game.revision(), 1u);
  // And within a game the key still names its event: the file again records nothing.
  const ProcessResult again = RunCli({"record", "-"}, line + "\n", ServerEnvironment::address());
  EXPECT_EQ(again.exit, 0) << again.err;
  ASSERT_TRUE(GetGame(*stub, "victim-1", &game).ok());
  EXPECT_EQ(game.revision(), 1u);
}

// 5. A capture error is a board fact: it names the opponent's stones, there
// now or once. 100,000 copies of an empty A1 gave a warning and a penalty
// stone; now they are refused with the point and why, and nothing is written
// (1,000 here: 100,000 pass the event's byte bound, BoundsInBytes).
TEST(TrustTest, CaptureErrorsAreCheckedAgainstTheBoard) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "capture-1",
                     {Created("capture-1", T0()), Started(T0()),
                      MoveAt(T0() + absl::Seconds(10), v1::BLACK, "Q16"),
                      MoveAt(T0() + absl::Seconds(20), v1::WHITE, "D4")},
                     &resp)
                  .ok());
  v1::Event flood = At(T0() + absl::Seconds(30));
  flood.mutable_capture_error()->set_color(v1::BLACK);
  flood.mutable_capture_error()->set_kind(v1::CaptureError::REMOVED_LIVE);
  for (int i = 0; i < 1000; ++i) flood.mutable_capture_error()->add_points("A1");
  grpc::Status s = Append(*stub, "capture-1", {flood}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StrContains(s.error_message(), "A1 has never held a WHITE stone"))
      << s.error_message().substr(0, 300);

  v1::Event own = At(T0() + absl::Seconds(30));
  own.mutable_capture_error()->set_color(v1::BLACK);
  own.mutable_capture_error()->set_kind(v1::CaptureError::REMOVED_LIVE);
  own.mutable_capture_error()->add_points("Q16");  // Black's own stone
  s = Append(*stub, "capture-1", {own}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StrContains(s.error_message(), "Q16")) << s.error_message();
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "capture-1", &game).ok());
  EXPECT_EQ(game.revision(), 4u) << "a refused capture error wrote something";
  EXPECT_EQ(game.state().warnings().black(), 0);

  // White's D4, wrongly taken by Black: a warning (18.1).
  v1::Event real = At(T0() + absl::Seconds(30));
  real.mutable_capture_error()->set_color(v1::BLACK);
  real.mutable_capture_error()->set_kind(v1::CaptureError::REMOVED_LIVE);
  real.mutable_capture_error()->add_points("D4");
  ASSERT_TRUE(Append(*stub, "capture-1", {real}, &resp).ok());
  ASSERT_TRUE(GetGame(*stub, "capture-1", &game).ok());
  EXPECT_EQ(game.state().warnings().black(), 1);
}

// 4. Bounds in bytes: each string field has its limit, checked before
// anything is stored; a refusal quotes at most a short prefix, so it fits
// its trailer (an 8,000-byte decision came back as RESOURCE_EXHAUSTED about
// metadata, a 100,000-byte one hung); a ruling that does not exist is
// NOT_FOUND.
TEST(TrustTest, BoundsInBytes) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "bounds-1",
                     {Created("bounds-1", T0()), Started(T0()),
                      MoveAt(T0() + absl::Seconds(10), v1::BLACK, "Q16")},
                     &resp)
                  .ok());
  auto refused = [&](v1::Event e, const std::string& field) {
    SCOPED_TRACE(field);
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));  // no hang
    v1::AppendEventsRequest req;
    req.set_game("games/bounds-1");
    *req.add_events() = std::move(e);
    v1::AppendEventsResponse out;
    const grpc::Status s = stub->AppendEvents(&ctx, req, &out);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message().substr(0, 200);
    EXPECT_TRUE(absl::StrContains(s.error_message(), field)) << s.error_message().substr(0, 200);
    EXPECT_LT(s.error_message().size(), 300u) << "the refusal echoes the value";
    EXPECT_TRUE(absl::StrContains(s.error_message(), "xxxxxxxxxxxxxxxx\"…"))
        << "a short prefix is quoted: " << s.error_message().substr(0, 200);
  };
  for (const size_t size : {size_t{8000}, size_t{100000}}) {
    v1::Event talk = At(T0() + absl::Seconds(20));
    talk.mutable_misconduct()->set_color(v1::BLACK);
    talk.mutable_misconduct()->set_kind(v1::Misconduct::TALK);
    talk.mutable_misconduct()->set_decision(std::string(size, 'x'));
    refused(talk, "events[0].misconduct.decision");
  }
  refused(Keyed(MoveAt(T0() + absl::Seconds(20), v1::WHITE, "D4"), std::string(3 << 20, 'x')),
          "events[0].idempotencyKey");
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "bounds-1", &game).ok());
  EXPECT_EQ(game.revision(), 3u) << "a refused value was stored";

  // The whole event too: 100,000 points, each within its own limit.
  v1::Event flood = At(T0() + absl::Seconds(30));
  flood.mutable_capture_error()->set_color(v1::WHITE);
  flood.mutable_capture_error()->set_kind(v1::CaptureError::REMOVED_LIVE);
  for (int i = 0; i < 100000; ++i) flood.mutable_capture_error()->add_points("Q16");
  const grpc::Status big = Append(*stub, "bounds-1", {flood}, &resp);
  EXPECT_EQ(big.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StrContains(big.error_message(), "per event")) << big.error_message();

  // The binary says it is bad input (2), not "unavailable" (3).
  const ProcessResult cli =
      RunCli({"record", "--game", "bounds-1", "-"},
             absl::StrCat(R"({"at": "2026-05-01T09:00:40Z", "misconduct": )",
                          R"({"color": "BLACK", "kind": "TALK", "decision": ")",
                          std::string(8000, 'x'), "\"}}\n"),
             ServerEnvironment::address());
  EXPECT_EQ(cli.exit, 2) << cli.err.substr(0, 300);

  // A ruling that does not exist.
  v1::DecideRequest decide;
  decide.set_game("games/bounds-1");
  decide.set_ruling(42);
  decide.set_choice("WARNING");
  ToProto(T0() + absl::Seconds(40), decide.mutable_at());
  const grpc::Status none = Call([&](auto* c) { return stub->Decide(c, decide, &resp); });
  EXPECT_EQ(none.error_code(), StatusCode::NOT_FOUND) << none.error_message();
}

// 3 (the skew guard). A mistyped time (a move dated 2062) is refused before
// it lands, unless the request says it replays a record.
TEST(TrustTest, ATimeAheadOfTheClockIsRefusedUnlessReplayed) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  const absl::Time t = absl::Now();
  ASSERT_TRUE(Append(*stub, "skew-1", {Created("skew-1", t), Started(t)}, &resp).ok());
  const absl::Time typo =
      absl::FromCivil(absl::CivilSecond(2062, 5, 1, 9, 10, 0), absl::UTCTimeZone());
  const grpc::Status s = Append(*stub, "skew-1", {MoveAt(typo, v1::BLACK, "Q16")}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "ahead of the server's clock"))
      << s.error_message();
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "skew-1", &game).ok());
  EXPECT_EQ(game.revision(), 2u);

  // Through the binary: refused (2), then accepted as a replay.
  const std::string line =
      R"({"at": "2062-05-01T09:10:00Z", "move": {"color": "BLACK", "point": "Q16"}})";
  ProcessResult r =
      RunCli({"record", "--game", "skew-1", "-"}, line + "\n", ServerEnvironment::address());
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "--replay")) << r.err;
  r = RunCli({"record", "--game", "skew-1", "--replay", "-"}, line + "\n",
             ServerEnvironment::address());
  EXPECT_EQ(r.exit, 0) << r.err;
  ASSERT_TRUE(GetGame(*stub, "skew-1", &game).ok());
  EXPECT_EQ(game.revision(), 3u);

  // CreateGame and Decide say no replay: their refusal gives their remedy.
  v1::CreateGameRequest create;
  create.mutable_game()->set_game_id("skew-2");
  create.mutable_game()->mutable_black()->set_name("Black");
  create.mutable_game()->mutable_white()->set_name("White");
  ToProto(typo, create.mutable_at());
  v1::DecideRequest decide;
  decide.set_game("games/skew-1");
  decide.set_ruling(1);
  decide.set_choice("WARNING");
  ToProto(typo, decide.mutable_at());
  for (const grpc::Status& refused :
       {Call([&](auto* c) { return stub->CreateGame(c, create, &game); }),
        Call([&](auto* c) { return stub->Decide(c, decide, &resp); })}) {
    EXPECT_EQ(refused.error_code(), StatusCode::INVALID_ARGUMENT) << refused.error_message();
    EXPECT_TRUE(absl::StrContains(refused.error_message(), "leave `at` out"))
        << refused.error_message();
    EXPECT_FALSE(absl::StrContains(refused.error_message(), "replay")) << refused.error_message();
  }
}

// What an attacker with write access to ledger.db (and no signing key)
// does to the last event: changes Black's last move to another point and
// recomputes its leaf hash, so the hash chain holds.
void ForgeTheLastMove(const std::string& db_path) {
  auto db = ledger::Db::Open(db_path, SQLITE_OPEN_READWRITE);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(db->Exec("DROP TRIGGER IF EXISTS events_no_UPDATE;").ok());
  auto q = ledger::Stmt::Prepare(*db, "SELECT position, event FROM events ORDER BY position DESC");
  ASSERT_TRUE(q.ok() && *q->Step());
  const int64_t position = q->Int(0);
  v1::Event e;
  ASSERT_TRUE(e.ParseFromString(q->Text(1)));
  ASSERT_TRUE(e.has_move());
  e.mutable_move()->set_point("C3");
  const std::string forged = CanonicalBytes(e);
  auto update =
      ledger::Stmt::Prepare(*db, "UPDATE events SET event = ?, leaf_hash = ? WHERE position = ?");
  ASSERT_TRUE(update.ok());
  update->BindBlob(1, forged)
      .BindBlob(2, std::string(AsBytes(ledger::LeafHash(forged))))
      .Bind(3, position);
  ASSERT_TRUE(update->Run().ok());
}

// Records a game in progress (its last event Black's move) on `server`.
void RecordAGameInProgress(const std::string& address, const std::string& id) {
  auto stub = StubFor(address);
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(
      Append(*stub, id,
             {Created(id, T0()), Started(T0()), MoveAt(T0() + absl::Seconds(10), v1::BLACK, "Q16"),
              MoveAt(T0() + absl::Seconds(20), v1::WHITE, "D4"),
              MoveAt(T0() + absl::Seconds(30), v1::BLACK, "Q4")},
             &resp)
          .ok());
}

// 6. The unsigned tail. Without a bound (--sign-within 0s, the old
// behaviour) a game in progress is never signed: a forged tail passes
// `verify`, which now says how many events no signature covers, and fails
// under --strict. With the default bound every write is signed within 1 s,
// after which the same forgery is caught.
TEST(TrustTest, TheUnsignedTailIsShortVisibleAndStrictlyRefused) {
  TempDir dir("arbiter-tail");
  {
    auto server = ServerProcess::Start(dir.File("open"), {"--sign-within", "0s"});
    ASSERT_NE(server, nullptr);
    RecordAGameInProgress(server->address(), "tail-1");
    ASSERT_EQ(server->Stop(SIGKILL), -1);
  }
  ForgeTheLastMove(dir.File("open/ledger.db"));
  ProcessResult r = RunArbiter({"verify", "--db", dir.File("open")});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;  // the forgery is invisible to the hashes...
  EXPECT_TRUE(
      absl::StrContains(r.out, "unsigned tail: 5 event(s) after the last signed checkpoint"))
      << r.out;  // ...but the window it used is shown,
  r = RunArbiter({"verify", "--db", dir.File("open"), "--strict"});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;  // and refused under --strict.
  EXPECT_TRUE(absl::StrContains(r.out, "NOT verified (--strict)")) << r.out;

  // The default bound: a checkpoint covers every write within 1 s.
  auto server = ServerProcess::Start(dir.File("bounded"));
  ASSERT_NE(server, nullptr);
  RecordAGameInProgress(server->address(), "tail-2");
  const absl::Time written = absl::Now();
  auto stub = StubFor(server->address());
  uint64_t covered = 0;
  absl::Time signed_at;
  std::string last_seen;  // for a failure's message
  while (absl::Now() - written < absl::Seconds(30)) {
    v1::SignedCheckpoint signed_checkpoint;
    grpc::ClientContext ctx;
    v1::GetCheckpointRequest req;  // the latest signed: nothing is signed on demand
    const grpc::Status got = stub->GetCheckpoint(&ctx, req, &signed_checkpoint);
    const v1::Checkpoint& c = signed_checkpoint.checkpoint();
    last_seen = absl::StrCat(got.error_code(), " ", got.error_message(), " size ", c.tree_size());
    if (got.ok() && c.tree_size() >= 5) {
      covered = c.tree_size();
      // When the server signed it (stamped before its commit): neither the
      // commit's fsync nor this poll's delay counts against the bound.
      signed_at =
          absl::FromUnixSeconds(c.issued_at().seconds()) + absl::Nanoseconds(c.issued_at().nanos());
      EXPECT_EQ(c.reason(), v1::Checkpoint::TAIL_BOUND);
      break;
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
  ASSERT_EQ(covered, 5u) << "no checkpoint covered the writes: " << last_seen;
  // 1 s, plus the writer's own scheduling.
  EXPECT_LT(signed_at - written, absl::Milliseconds(1500));
  r = RunArbiter({"verify", "--db", dir.File("bounded"), "--strict"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "unsigned tail: 0 event(s)")) << r.out;
  ASSERT_EQ(server->Stop(SIGKILL), -1);
  ForgeTheLastMove(dir.File("bounded/ledger.db"));
  r = RunArbiter({"verify", "--db", dir.File("bounded")});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "NOT intact")) << r.out;
}

}  // namespace
}  // namespace arbiter::testing
