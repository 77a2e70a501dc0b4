// Several `arbiter serve` processes on one PostgreSQL ledger (issue 17):
// any server takes any write and reads what the others wrote; one killed
// with SIGKILL under load, or the database stopped in immediate mode and
// restarted, loses no acknowledged event and duplicates none. The holder of
// the signer's lease signs every server's writes within --sign-within
// (issue 13, point 6).
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "ledger/postgres/log_reader.h"
#include "ledger/thread_name.h"
#include "tests/service/e2e_util.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"
#include "tests/support/thread_switches.h"

namespace arbiter::testing {
namespace {

absl::Duration S(int s) { return absl::Seconds(s); }

// The i-th stone of a game: on a grid of every other point, so no stone
// ever touches another (no capture, no suicide, never occupied).
std::string Point(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  return absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1);
}

// The events of game `id`, each with its idempotency key: created,
// started, then `moves` stones.
std::vector<v1::Event> GameEvents(const std::string& id, int moves) {
  std::vector<v1::Event> out = {Keyed(Created(id, T0()), id + "/created"),
                                Keyed(Started(T0()), id + "/started")};
  for (int i = 0; i < moves; ++i) {
    out.push_back(Keyed(MoveAt(T0() + S(10 + i), i % 2 ? v1::WHITE : v1::BLACK, Point(i)),
                        absl::StrCat(id, "/", i)));
  }
  return out;
}

class PgServersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> uri = SharedPgCluster().NewDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status();
    uri_ = *uri;
  }

  // A server with a state directory of its own; every server signs with
  // the same key (the first makes it, the others get a copy).
  std::unique_ptr<ServerProcess> StartServer(const std::string& name,
                                             const std::vector<std::string>& flags = {}) {
    const std::string state = dir_.File(name);
    std::filesystem::create_directories(state);
    if (!key_.empty()) WriteFile(state + "/ledger.key", key_);
    std::unique_ptr<ServerProcess> s = ServerProcess::StartShared(uri_, state, flags);
    if (s != nullptr && key_.empty()) key_ = ReadFile(state + "/ledger.key");
    return s;
  }

  // Appends `e` through whichever server answers, starting with
  // `servers[first]`, retrying with the same key until one acknowledges.
  static bool AppendSomewhere(const std::vector<std::string>& servers, size_t first,
                              const std::string& game, const v1::Event& e) {
    const absl::Time give_up = absl::Now() + absl::Seconds(90);
    for (size_t attempt = first; absl::Now() < give_up; ++attempt) {
      auto stub = StubFor(servers[attempt % servers.size()]);
      v1::AppendEventsResponse resp;
      grpc::Status s = Append(*stub, game, {e}, &resp);
      if (s.ok()) return true;
      if (s.error_code() != grpc::StatusCode::UNAVAILABLE &&
          s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED &&
          s.error_code() != grpc::StatusCode::INTERNAL) {
        ADD_FAILURE() << game << ": " << s.error_message();
        return false;
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
    return false;
  }

  // One client thread per game, each appending its events in order through
  // AppendSomewhere (game i first to servers[i % n]); `midway` runs once a
  // third of all events are acknowledged. False if a client gave up.
  static bool RunLoad(const std::vector<std::string>& servers,
                      const std::map<std::string, std::vector<v1::Event>>& games,
                      const std::function<void()>& midway) {
    size_t total = 0;
    for (const auto& [id, events] : games) total += events.size();
    std::atomic<size_t> acknowledged{0};
    std::atomic<int> failed{0};
    std::vector<std::thread> clients;
    size_t i = 0;
    for (const auto& [id, events] : games) {
      clients.emplace_back([&, id = id, first = i++] {
        for (const v1::Event& e : games.at(id)) {
          if (!AppendSomewhere(servers, first, id, e)) {
            ++failed;
            return;
          }
          ++acknowledged;
        }
      });
    }
    while (acknowledged.load() < total / 3 && failed.load() == 0) {
      absl::SleepFor(absl::Milliseconds(5));
    }
    midway();
    for (std::thread& t : clients) t.join();
    return failed.load() == 0;
  }

  // Every event of every game exactly once, with its revision in order.
  void ExpectEveryEventOnce(const std::map<std::string, std::vector<v1::Event>>& games) {
    absl::StatusOr<std::unique_ptr<ledger::PgLogReader>> reader = ledger::PgLogReader::Open(uri_);
    ASSERT_TRUE(reader.ok()) << reader.status();
    for (const auto& [game, events] : games) {
      absl::StatusOr<std::vector<v1::LedgerEntry>> stored = (*reader)->ReadGame(game, 0, 100000);
      ASSERT_TRUE(stored.ok()) << stored.status();
      ASSERT_EQ(stored->size(), events.size()) << game;
      for (size_t i = 0; i < events.size(); ++i) {
        v1::Event e;
        ASSERT_TRUE(e.ParseFromString((*stored)[i].event()));
        EXPECT_EQ(e.idempotency_key(), events[i].idempotency_key())
            << game << " revision " << i + 1;
      }
    }
    ProcessResult verify = RunArbiter({"verify", "--db", uri_});
    EXPECT_EQ(verify.exit, 0) << verify.out << verify.err;
  }

  // The signed checkpoints, oldest first (an empty list on error).
  std::vector<v1::Checkpoint> Checkpoints() {
    absl::StatusOr<std::unique_ptr<ledger::PgLogReader>> reader = ledger::PgLogReader::Open(uri_);
    if (!reader.ok()) return {};
    absl::StatusOr<std::vector<v1::Checkpoint>> all = (*reader)->Checkpoints();
    return all.ok() ? *all : std::vector<v1::Checkpoint>{};
  }

  // How many sessions hold the signer's lease: the advisory lock
  // "arbiter\x03" (ledger/postgres/store.cc), a bigint key, which pg_locks shows
  // as its high and low halves.
  int SignerLeases() {
    absl::StatusOr<std::unique_ptr<ledger::PgLogReader>> reader = ledger::PgLogReader::Open(uri_);
    if (!reader.ok()) return -1;
    absl::StatusOr<ledger::PgResult> r = (*reader)->conn().Exec(
        "SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND granted AND "
        "classid = x'61726269'::int::oid AND objid = x'74657203'::int::oid AND objsubid = 1");
    return r.ok() ? static_cast<int>(r->Int(0, 0)) : -1;
  }

  // Waits (30 s at most) for a signed checkpoint covering `size` events;
  // the time its server signed it (stamped before its commit, so neither
  // the commit's fsync nor this poll's delay is in it), or InfiniteFuture.
  absl::Time WaitForCheckpointCovering(uint64_t size, v1::Checkpoint* found) {
    const absl::Time give_up = absl::Now() + absl::Seconds(30);
    while (absl::Now() < give_up) {
      std::vector<v1::Checkpoint> all = Checkpoints();
      if (!all.empty() && all.back().tree_size() >= size) {
        *found = all.back();
        return absl::FromUnixSeconds(found->issued_at().seconds()) +
               absl::Nanoseconds(found->issued_at().nanos());
      }
      absl::SleepFor(absl::Milliseconds(20));
    }
    return absl::InfiniteFuture();
  }

  // Writes `game`'s creation through `writer` and waits (30 s at most) until
  // `watched` sends it to a WatchAll opened before the write: `watched`
  // learns of another server's commits only from its read of the head, on
  // the write's notification, so it has read since the write, with its ask
  // for the signer's lease standing (ledger/postgres/store.cc). False if it
  // never came.
  static bool AwaitPollAfterWrite(const std::string& writer, const std::string& watched,
                                  const std::string& game) {
    auto stub = StubFor(watched);
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
    std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader =
        stub->WatchAll(&ctx, v1::WatchAllRequest());
    v1::WatchResponse m;
    bool caught_up = false, seen = false;
    while (!caught_up && reader->Read(&m)) caught_up = m.has_caught_up();
    v1::AppendEventsResponse resp;
    if (caught_up && Append(*StubFor(writer), game, {Created(game, T0())}, &resp).ok()) {
      while (!seen && reader->Read(&m)) {
        seen = m.has_event() && m.event().position() == resp.events(0).position();
      }
    }
    ctx.TryCancel();
    while (reader->Read(&m)) {
    }
    reader->Finish();
    return seen;
  }

  // The context switches the threads of `server` named `prefix`* make in 5
  // idle seconds, once they have made none for half a second (20 s at
  // most): each is a wakeup. Sets *named to whether there were any.
  static uint64_t IdleSwitches(const ServerProcess& server, const std::string& prefix,
                               bool* named) {
    std::map<std::string, uint64_t> before = ThreadSwitches(server.pid(), prefix);
    *named = !before.empty();
    for (const absl::Time give_up = absl::Now() + S(20); absl::Now() < give_up;) {
      absl::SleepFor(absl::Milliseconds(500));
      const std::map<std::string, uint64_t> now = ThreadSwitches(server.pid(), prefix);
      const bool settled = now == before;
      before = now;
      if (settled) break;
    }
    absl::SleepFor(S(5));  // the idle window measured, not a wait
    uint64_t made = 0;
    SwitchesSince(before, ThreadSwitches(server.pid(), prefix), &made);
    return made;
  }

  TempDir dir_{"arbiter-pg-servers"};
  std::string uri_;
  std::string key_;
};

TEST_F(PgServersTest, AnyServerTakesAnyWriteAndReadsWhatTheOthersWrote) {
  auto a = StartServer("a");
  ASSERT_NE(a, nullptr);
  auto b = StartServer("b");
  ASSERT_NE(b, nullptr);
  auto sa = StubFor(a->address());
  auto sb = StubFor(b->address());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*sa, "g", {Created("g", T0()), Started(T0())}, &resp).ok());
  v1::Game game;
  ASSERT_TRUE(GetGame(*sa, "g", &game).ok());  // a keeps the game's fold at revision 2
  grpc::Status s = Append(*sb, "g", {MoveAt(T0() + S(10), v1::BLACK, "Q16")}, &resp, 2);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // a reads b's move, and judges its next append after it.
  ASSERT_TRUE(GetGame(*sa, "g", &game).ok());
  EXPECT_EQ(game.revision(), 3u);
  s = Append(*sa, "g", {MoveAt(T0() + S(20), v1::WHITE, "D4")}, &resp, 2);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED) << "a stale expected revision";
  s = Append(*sa, "g", {MoveAt(T0() + S(20), v1::WHITE, "D4")}, &resp, 3);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.revision(), 4u);
  ASSERT_TRUE(GetGame(*sb, "g", &game).ok());
  EXPECT_EQ(game.revision(), 4u);
  ProcessResult verify = RunArbiter({"verify", "--db", uri_});
  EXPECT_EQ(verify.exit, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("4 events in 1 game"), std::string::npos) << verify.out;
}

TEST_F(PgServersTest, KillNineOfOneServerUnderLoadLosesNothing) {
  auto a = StartServer("a");
  ASSERT_NE(a, nullptr);
  auto b = StartServer("b");
  ASSERT_NE(b, nullptr);
  const std::vector<std::string> servers = {a->address(), b->address()};
  constexpr int kGames = 8, kMoves = 30;
  std::map<std::string, std::vector<v1::Event>> games;
  for (int g = 0; g < kGames; ++g) {
    const std::string id = absl::StrCat("load-", g);
    games[id] = GameEvents(id, kMoves);
  }
  ASSERT_TRUE(RunLoad(servers, games, [&] { EXPECT_EQ(a->Stop(SIGKILL), -1); }));
  ExpectEveryEventOnce(games);
}

TEST_F(PgServersTest, PostgresStoppedInImmediateModeUnderLoadLosesNothing) {
  auto a = StartServer("a");
  ASSERT_NE(a, nullptr);
  const std::vector<std::string> servers = {a->address()};
  constexpr int kGames = 4, kMoves = 30;
  std::map<std::string, std::vector<v1::Event>> games;
  for (int g = 0; g < kGames; ++g) {
    const std::string id = absl::StrCat("crash-", g);
    games[id] = GameEvents(id, kMoves);
  }
  ASSERT_TRUE(RunLoad(servers, games, [] {
    ASSERT_TRUE(SharedPgCluster().Stop("immediate").ok());
    absl::SleepFor(absl::Milliseconds(500));
    ASSERT_TRUE(SharedPgCluster().Restart().ok()) << SharedPgCluster().log();
  }));
  ExpectEveryEventOnce(games);
}

// Writes that go to a server which does not hold the signer's lease are
// signed by the one that does, within --sign-within (1 s by default) of
// their commit; after that, `verify --strict` passes. When the holder dies,
// the lease passes on and the next writes are signed as well.
TEST_F(PgServersTest, TheLeaseHolderSignsEveryServersWritesWithinTheBound) {
  auto a = StartServer("a");
  ASSERT_NE(a, nullptr);
  // a takes the signer's lease at its first poll, at its start.
  const absl::Time give_up = absl::Now() + absl::Seconds(5);
  while (SignerLeases() != 1 && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(20));
  ASSERT_EQ(SignerLeases(), 1);
  auto b = StartServer("b");
  ASSERT_NE(b, nullptr);
  // b has polled since a's write (position 1), trying the lease: a keeps it.
  ASSERT_TRUE(AwaitPollAfterWrite(a->address(), b->address(), "probe"));
  EXPECT_EQ(SignerLeases(), 1) << "one signer at a time";
  v1::Checkpoint c;
  ASSERT_NE(WaitForCheckpointCovering(1, &c), absl::InfiniteFuture()) << "a signed nothing";

  auto sb = StubFor(b->address());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*sb, "tail",
                     {Created("tail", T0()), Started(T0()), MoveAt(T0() + S(10), v1::BLACK, "Q16"),
                      MoveAt(T0() + S(20), v1::WHITE, "D4")},
                     &resp)
                  .ok());
  absl::Time written = absl::Now();
  absl::Time signed_at = WaitForCheckpointCovering(5, &c);
  ASSERT_NE(signed_at, absl::InfiniteFuture()) << "no checkpoint covered b's writes";
  EXPECT_EQ(c.tree_size(), 5u);
  EXPECT_EQ(c.reason(), v1::Checkpoint::TAIL_BOUND);
  // 1 s at most from the signer's previous read of the head, plus its
  // scheduling.
  EXPECT_LT(signed_at - written, absl::Milliseconds(1500));
  EXPECT_EQ(Checkpoints().size(), 2u) << "one checkpoint each time, by the one signer";
  ProcessResult verify = RunArbiter({"verify", "--db", uri_, "--strict"});
  EXPECT_EQ(verify.exit, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("unsigned tail: 0 event(s)"), std::string::npos) << verify.out;

  // The holder dies: the database grants the lease to b, which waited for
  // it, and b signs what it finds within the bound from then.
  ASSERT_EQ(a->Stop(SIGKILL), -1);
  ASSERT_TRUE(Append(*sb, "tail", {MoveAt(T0() + S(30), v1::BLACK, "Q4")}, &resp, 4).ok());
  written = absl::Now();
  signed_at = WaitForCheckpointCovering(6, &c);
  ASSERT_NE(signed_at, absl::InfiniteFuture()) << "no checkpoint after the holder died";
  EXPECT_EQ(c.reason(), v1::Checkpoint::TAIL_BOUND);
  EXPECT_LT(signed_at - written, absl::Milliseconds(1700)) << "the lease passed on late";
  EXPECT_EQ(SignerLeases(), 1);
}

// Without a bound (--sign-within 0s) no server takes the lease, the writes
// stay unsigned, and `verify` says so (and fails under --strict).
TEST_F(PgServersTest, WithoutABoundTheTailStaysUnsignedAndStrictFails) {
  std::vector<std::unique_ptr<ServerProcess>> servers;
  for (const std::string name : {"a", "b"}) {
    servers.push_back(StartServer(name, {"--sign-within", "0s"}));
    ASSERT_NE(servers.back(), nullptr);
  }
  // Each has polled since the other's write: a poll that would take the
  // lease has come and gone.
  ASSERT_TRUE(AwaitPollAfterWrite(servers[1]->address(), servers[0]->address(), "open"));
  ASSERT_TRUE(AwaitPollAfterWrite(servers[0]->address(), servers[1]->address(), "other"));
  EXPECT_EQ(SignerLeases(), 0);
  // Stopped, each has done all it ever will (a closing holder of the lease
  // signs its tail before it stops): what is signed now is all there is.
  for (auto& s : servers) EXPECT_EQ(s->Stop(SIGTERM), 0) << s->log();
  EXPECT_TRUE(Checkpoints().empty());
  ProcessResult verify = RunArbiter({"verify", "--db", uri_});
  EXPECT_EQ(verify.exit, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("unsigned tail: 2 event(s)"), std::string::npos) << verify.out;
  verify = RunArbiter({"verify", "--db", uri_, "--strict"});
  EXPECT_EQ(verify.exit, 1) << verify.out << verify.err;
}

// Issue 45.2: other servers' commits arrive by LISTEN/NOTIFY, not by a poll
// of the head. With no bound on the unsigned tail (nothing to look for on a
// timer), an idle server's poller sleeps: no context switch in 3 idle
// seconds (a poll every 100 ms made 30); and another server's commit still
// reaches its watch streams, which only a notification can now bring.
TEST_F(PgServersTest, AnotherServersCommitArrivesByNotifyAndAnIdlePollerSleeps) {
  auto a = StartServer("a", {"--sign-within", "0s"});
  ASSERT_NE(a, nullptr);
  auto b = StartServer("b", {"--sign-within", "0s"});
  ASSERT_NE(b, nullptr);
  bool named = false;
  const uint64_t made = IdleSwitches(*b, "arb-pg-poller", &named);
  ASSERT_TRUE(named) << "no thread named arb-pg-poller";
  EXPECT_LE(made, 1u) << "b's idle poller woke " << made << " times in 5 s";

  // b's stream, caught up, then a's commit.
  auto sb = StubFor(b->address());
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + S(20)));
  v1::WatchAllRequest req;
  auto reader = sb->WatchAll(&ctx, req);
  v1::WatchResponse msg;
  ASSERT_TRUE(reader->Read(&msg));
  ASSERT_TRUE(msg.has_caught_up()) << msg.DebugString();
  auto sa = StubFor(a->address());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*sa, "n", {Created("n", T0())}, &resp).ok());
  ASSERT_TRUE(reader->Read(&msg)) << "b never heard of a's commit";
  ASSERT_TRUE(msg.has_event()) << msg.DebugString();
  EXPECT_EQ(msg.event().position(), 1u);
  ctx.TryCancel();
  (void)reader->Finish();
}

// Issue 45.2: with a bound on the unsigned tail (--sign-within 1 s, the
// default) nothing is on a timer either. The holder of the signer's lease
// learns of commits by notification and its writer sleeps until the tail is
// due; the other server waits for the lease in the database, not by asking
// again (a poll of the lease every 100 ms made 60 and 82 wakeups in 3 s).
// The project's threads (arb-*) of each make at most 5 wakeups in 5 idle
// seconds after a write is signed, as an idle server's (idle_test.cc); that
// the lease still passes when its holder dies is
// TheLeaseHolderSignsEveryServersWritesWithinTheBound.
TEST_F(PgServersTest, IdleServersWithABoundMakeNoWakeupsWhetherTheyHoldTheLeaseOrWaitForIt) {
  auto a = StartServer("a");
  ASSERT_NE(a, nullptr);
  const absl::Time give_up = absl::Now() + S(5);
  while (SignerLeases() != 1 && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(20));
  ASSERT_EQ(SignerLeases(), 1) << "a never took the signer's lease";
  auto b = StartServer("b");
  ASSERT_NE(b, nullptr);
  // b's write, signed by a within the bound: a's tail has been due and is
  // empty again.
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*StubFor(b->address()), "quiet", {Created("quiet", T0())}, &resp).ok());
  v1::Checkpoint c;
  ASSERT_NE(WaitForCheckpointCovering(1, &c), absl::InfiniteFuture()) << "a signed nothing";
  EXPECT_EQ(c.reason(), v1::Checkpoint::TAIL_BOUND);
  for (const ServerProcess* s : {a.get(), b.get()}) {
    bool named = false;
    const uint64_t made = IdleSwitches(*s, kThreadNamePrefix, &named);
    ASSERT_TRUE(named) << "no thread named " << kThreadNamePrefix << "*";
    EXPECT_LE(made, 5u) << s->address() << ": its idle threads woke " << made << " times in 5 s";
  }
  EXPECT_EQ(SignerLeases(), 1) << "one signer at a time";
}

}  // namespace
}  // namespace arbiter::testing
