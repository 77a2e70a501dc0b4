// Issue 44.1: every reader that walks the log tells a tournament's entries
// (ledger/stream.h) from a game's. A ledger holding a tournament stream of
// 21 events between the events of game g1, then one more of g1 and a game g2:
// WatchAll gives the game events alone, in order, and catches up; the hall
// lists the games alone; the tiles serve each entry as the data its leaf
// hashes; a game's bundle and receipt verify, a tournament event's receipt
// names its kind; `arbiter verify --db` is intact and counts the tournament.
// Through a real `arbiter serve` and the CLI, as a user would.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/hash.h"
#include "ledger/ledger.h"
#include "ledger/receipt.h"
#include "ledger/store.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/watchers.h"

namespace arbiter::testing {
namespace {

constexpr uint64_t kTournamentFirst = 4;  // positions 4..24: tournament T1
constexpr uint64_t kTournamentEvents = 21;
constexpr uint64_t kHead = 27;  // 1-3 g1, 4-24 T1, 25 g1, 26-27 g2

// Lines `from`..`to` (1-based) of game `id`'s record, whose fourth event
// (a clock's malfunction) earns ruling 1.
std::string Lines(const std::string& id, size_t from, size_t to) {
  const std::vector<std::string> lines =
      absl::StrSplit(ClockFailureGame(id), '\n', absl::SkipEmpty());
  std::string out;
  for (size_t i = from; i <= to; ++i) absl::StrAppend(&out, lines[i - 1], "\n");
  return out;
}

void Record(const std::string& server, const std::vector<std::string>& args,
            const std::string& lines) {
  const ProcessResult r = RunCli(args, lines, server);
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
}

// T1's stream, appended with the ledger library while no server runs, all
// at once between g1's events: more than a WatchAll reads from the database
// at a time, so a batch holds nothing but tournament entries.
void AppendTournament(const std::string& data) {
  AdjudicatorJudge judge;
  ledger::LedgerOptions o;
  o.dir = data;
  o.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(o);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  std::vector<v1::TournamentEvent> events(kTournamentEvents);
  events[0].mutable_created()->set_tournament_id("T1");
  events[0].mutable_created()->set_title("Spring Open");
  events[0].mutable_created()->mutable_settings()->set_system(v1::TournamentSettings::ROUND_ROBIN);
  for (uint64_t i = 1; i < kTournamentEvents; ++i) {
    events[i].mutable_player_added()->mutable_player()->set_id(absl::StrCat("p", i));
    events[i].mutable_player_added()->mutable_player()->set_name(absl::StrCat("Player ", i));
  }
  for (v1::TournamentEvent& e : events) e.set_actor("director");
  absl::StatusOr<std::vector<v1::LedgerEntry>> appended = (*ledger)->AppendAndWait(
      ledger::AppendRequest::Tournament("T1", ledger::ExpectedRevision::NoStream(), events));
  ASSERT_TRUE(appended.ok()) << appended.status();
  ASSERT_EQ(appended->front().position(), kTournamentFirst);
}

class TournamentReadersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("arbiter-tournament-readers");
    data_ = dir_->File("data");
    {
      auto server = ServerProcess::Start(data_);
      ASSERT_NE(server, nullptr);
      Record(server->address(), {"record", "-"}, Lines("g1", 1, 3));
    }
    AppendTournament(data_);
    if (::testing::Test::HasFatalFailure()) return;
    auto server = ServerProcess::Start(data_);
    ASSERT_NE(server, nullptr);
    Record(server->address(), {"record", "--game", "g1", "-"}, Lines("g1", 4, 4));
    Record(server->address(), {"record", "-"}, Lines("g2", 1, 2));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static TempDir* dir_;
  static std::string data_;
};
TempDir* TournamentReadersTest::dir_ = nullptr;
std::string TournamentReadersTest::data_;

// WatchAll from the start reads the log from the database: the game events
// alone, at their positions, then caught up at the head, the tournament's
// entries passed over (before, they went out as events of a game named
// "tournaments/T1", or the stream waited on a batch of them forever).
TEST_F(TournamentReadersTest, WatchAllGivesTheGameEventsAlone) {
  auto server = ServerProcess::Start(data_);
  ASSERT_NE(server, nullptr);
  const ProcessResult watch =
      RunCli({"watch", "--all", "--until-caught-up"}, "", server->address());
  ASSERT_EQ(watch.exit, 0) << watch.out << watch.err;
  std::vector<std::string> shown;
  for (absl::string_view line : absl::StrSplit(watch.out, '\n', absl::SkipEmpty())) {
    // Rulings and their texts are indented; the caught-up line is below.
    if (absl::StartsWith(line, " ") || absl::StartsWith(line, "--")) continue;
    const std::vector<std::string> words = absl::StrSplit(line, ' ');
    ASSERT_GE(words.size(), 5u) << line;
    shown.push_back(absl::StrCat(words[0], " ", words[4]));
  }
  EXPECT_EQ(shown, (std::vector<std::string>{"games/g1 1", "games/g1 2", "games/g1 3",
                                             "games/g1 25", "games/g2 26", "games/g2 27"}))
      << watch.out;
  EXPECT_TRUE(absl::StrContains(watch.out, "-- caught up at position 27; stopped")) << watch.out;
}

// The hall lists games only, finished ones too with ?all=1.
TEST_F(TournamentReadersTest, HallListsOnlyGames) {
  auto server = ServerProcess::Start(data_, {"--http", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  httplib::Client http(absl::StrCat("http://", server->console_address()));
  auto hall = http.Get("/api/games?all=1");
  ASSERT_TRUE(hall);
  ASSERT_EQ(hall->status, 200) << hall->body;
  EXPECT_TRUE(absl::StrContains(hall->body, "\"games/g1\"")) << hall->body;
  EXPECT_TRUE(absl::StrContains(hall->body, "\"games/g2\"")) << hall->body;
  EXPECT_FALSE(absl::StrContains(hall->body, "T1")) << hall->body;
}

// Each entry of the entries tile is the data its leaf hashes: its
// SHA-256(0x00 || data) is the level-0 tile's hash at that index (C2SP
// tlog-tiles), the tournament's entries included.
TEST_F(TournamentReadersTest, TilesServeEachLeafsData) {
  auto server = ServerProcess::Start(data_, {"--http", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  httplib::Client http(absl::StrCat("http://", server->console_address()));
  auto note = http.Get("/checkpoint");
  ASSERT_TRUE(note);
  ASSERT_EQ(note->status, 200) << note->body;
  const std::vector<std::string> lines = absl::StrSplit(note->body, '\n');
  ASSERT_GE(lines.size(), 2u);
  const std::string size = lines[1];
  ASSERT_EQ(size, absl::StrCat(kHead)) << note->body;  // signed at the close
  auto hashes = http.Get(absl::StrCat("/tile/0/000.p/", size));
  auto entries = http.Get(absl::StrCat("/tile/entries/000.p/", size));
  ASSERT_TRUE(hashes && entries);
  ASSERT_EQ(hashes->status, 200) << hashes->body;
  ASSERT_EQ(entries->status, 200) << entries->body;
  ASSERT_EQ(hashes->body.size(), kHead * 32);
  const std::string& body = entries->body;
  size_t at = 0;
  for (uint64_t i = 0; i < kHead; ++i) {
    ASSERT_LE(at + 2, body.size()) << "entry " << i + 1;
    const size_t n = (static_cast<uint8_t>(body[at]) << 8) | static_cast<uint8_t>(body[at + 1]);
    ASSERT_LE(at + 2 + n, body.size()) << "entry " << i + 1;
    const std::string data = body.substr(at + 2, n);
    at += 2 + n;
    EXPECT_EQ(std::string(AsBytes(ledger::LeafHash(data))), hashes->body.substr(i * 32, 32))
        << "position " << i + 1 << ": the entries tile does not hold what its leaf hashes";
  }
  EXPECT_EQ(at, body.size());
}

// A game's bundle and its ruling's receipt verify with the tournament's
// leaves in their proofs; a tournament event's receipt verifies and names
// the event's kind; the audit is intact and counts the tournament.
TEST_F(TournamentReadersTest, BundleReceiptAndVerify) {
  const std::string bundle = dir_->File("g1.bundle");
  ProcessResult r = RunArbiter({"export", "g1", "--db", data_, "--bundle", bundle});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  r = RunArbiter({"verify", "--bundle", bundle});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;

  const std::string vkey = data_ + "/ledger.vkey";
  const std::string receipt = dir_->File("g1.tlog-proof");
  r = RunArbiter({"export", "g1", "--db", data_, "--receipt", "1", "--out", receipt});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  r = RunArbiter({"verify", "--receipt", receipt, "--key", vkey});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;

  {
    absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(data_);
    ASSERT_TRUE(store.ok()) << store.status();
    auto reader = (*store)->OpenReader();
    ASSERT_TRUE(reader.ok()) << reader.status();
    absl::StatusOr<std::string> proof = ledger::ExportReceipt(**reader, nullptr, kTournamentFirst);
    ASSERT_TRUE(proof.ok()) << proof.status();
    WriteFile(dir_->File("t1.tlog-proof"), *proof);
  }
  r = RunArbiter({"verify", "--receipt", dir_->File("t1.tlog-proof"), "--key", vkey});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "the event at position 4 (tournament created)")) << r.out;

  // The CLI names a tournament's event by its stream and revision (issue
  // 44.2): revision 3 of T1 is at position 6.
  const std::string t1 = dir_->File("t1-r3.tlog-proof");
  r = RunArbiter({"export", "tournaments/T1", "--db", data_, "--receipt", "3", "--out", t1});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "revision 3 of tournament 'T1' (position 6)")) << r.out;
  r = RunArbiter({"verify", "--receipt", t1, "--key", vkey});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "the event at position 6 (tournament ")) << r.out;
  r = RunArbiter({"export", "tournaments/T1", "--db", data_, "--receipt", "99"});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "tournament 'T1' has no revision 99")) << r.err;

  r = RunArbiter({"verify", "--db", data_});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "intact: 27 events in 2 game(s)")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "1 tournament(s) checked")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "re-adjudicated 2 game(s)")) << r.out;
}

// Issue 44.7: the server writes a tournament into the ledger now. A
// WatchAll following live (on the commit feed) passes over its entries:
// the next event it gives after them is the game's, at its position.
TEST_F(TournamentReadersTest, WatchAllFollowingLivePassesOverATournamentWrite) {
  auto server = ServerProcess::Start(data_);
  ASSERT_NE(server, nullptr);
  absl::Mutex mu;
  std::vector<v1::WatchResponse> got;
  WatcherPool pool(server->address(), 1, "", [&](int, const v1::WatchResponse& m) {
    absl::MutexLock lock(&mu);
    got.push_back(m);
  });
  pool.Open("", kHead);
  // Waits for the n-th message itself (30 s at most).
  auto received = [&](size_t n) {
    absl::MutexLock lock(&mu);
    auto enough = [&]() { return got.size() >= n; };
    return mu.AwaitWithTimeout(absl::Condition(&enough), absl::Seconds(30));
  };
  ASSERT_TRUE(received(1)) << "no caught-up";
  ProcessResult r =
      RunCli({"tournament", "create", "--id", "T2", "--system", "round-robin", "--title",
              "Summer Open", "--player", "a:Li,Wei:3D", "--player", "b:Wang,Fang:2D"},
             "", server->address());
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  Record(server->address(), {"record", "--game", "g2", "-"}, Lines("g2", 3, 3));
  ASSERT_TRUE(received(2)) << "the game's event did not come";
  absl::MutexLock lock(&mu);
  ASSERT_TRUE(got[0].has_caught_up());
  EXPECT_EQ(got[0].caught_up().position(), kHead);
  ASSERT_TRUE(got[1].has_event()) << got[1].DebugString();
  EXPECT_EQ(got[1].event().game(), "games/g2");
  EXPECT_EQ(got[1].event().revision(), 3u);
  EXPECT_GT(got[1].event().position(), kHead + 1) << "the tournament's entries are not before it";
}

}  // namespace
}  // namespace arbiter::testing
