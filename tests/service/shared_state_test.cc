// A server's state in its store (issue 44.5). On SQLite: `arbiter token`
// writes the ledger.db of a running server, which takes the token at its
// next call, and a data folder of the previous release keeps its tokens
// (issue 44.7). On PostgreSQL: two `arbiter serve` processes on one
// database share all the
// state a server keeps besides its keys (issue 44.5): a token made with
// `arbiter token create --db postgresql://...` is taken by both at once and,
// revoked, refused by both within a second; a console session opened on one
// works on the other and ends on both; the second requires tokens exactly
// when the first does; both sign under the database's origin, whatever URI
// each was given; a witness's cosignature one keeps is in the other's
// receipts. Their --state folders hold keys only. And a --state folder
// of the previous release (tests/data/upgrade-tokens) brings its tokens into
// the database (issue 44.7).
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/service/e2e_util.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

namespace fs = std::filesystem;

// A read through `address` as the holder of `secret` (none: no token): OK
// and NOT_FOUND mean the caller was let in.
grpc::StatusCode ReadAs(const std::string& address, const std::string& secret) {
  auto stub = StubFor(address);
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  if (!secret.empty()) ctx.AddMetadata("authorization", "Bearer " + secret);
  v1::GetGameRequest req;
  req.set_name("games/shared-1");
  v1::Game game;
  return stub->GetGame(&ctx, req, &game).error_code();
}

bool LetIn(grpc::StatusCode code) {
  return code == grpc::StatusCode::OK || code == grpc::StatusCode::NOT_FOUND;
}

// Waits (at most `bound`) until `address` refuses `secret` as
// UNAUTHENTICATED; how long that took, or InfiniteDuration if it never did.
absl::Duration RefusedWithin(const std::string& address, const std::string& secret,
                             absl::Duration bound) {
  const absl::Time start = absl::Now();
  while (absl::Now() - start < bound) {
    if (ReadAs(address, secret) == grpc::StatusCode::UNAUTHENTICATED) return absl::Now() - start;
  }
  return absl::InfiniteDuration();
}

std::string CookieOf(const httplib::Result& r) {
  const std::string set = r->get_header_value("Set-Cookie");
  return set.substr(0, set.find(';'));
}

// The files a --state folder holds.
std::set<std::string> FilesIn(const std::string& dir) {
  std::set<std::string> out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    out.insert(e.path().filename().string());
  }
  return out;
}

// What a server of a shared database may keep of its own: its keys, its
// lock, and (until tournaments move into the log, issue 44.1, not this
// test's) their SQLite file with its -wal and -shm.
void ExpectKeysOnly(const std::string& dir) {
  static const std::set<std::string> kAllowed = {"ledger.key", "ledger.pub", "ledger.vkey",
                                                 "serve.lock"};
  for (const std::string& f : FilesIn(dir)) {
    EXPECT_TRUE(kAllowed.count(f) == 1 || absl::StartsWith(f, "tournaments.db"))
        << dir << " holds " << f;
  }
}

class PgSharedStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> uri = SharedPgCluster().NewDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status();
    uri_ = *uri;
  }

  // A server on `uri` with the state folder `name`, signing with the key
  // the first server made.
  std::unique_ptr<ServerProcess> StartServer(const std::string& uri, const std::string& name,
                                             const std::vector<std::string>& flags = {}) {
    const std::string state = dir_.File(name);
    fs::create_directories(state);
    if (!key_.empty() && !fs::exists(state + "/ledger.key")) {
      WriteFile(state + "/ledger.key", key_);
    }
    std::unique_ptr<ServerProcess> s = ServerProcess::StartShared(uri, state, flags);
    if (s != nullptr && key_.empty()) key_ = ReadFile(state + "/ledger.key");
    return s;
  }

  // The first line of the checkpoint note `console` serves, once it has one.
  static std::string OriginServedBy(const std::string& console) {
    httplib::Client http(absl::StrCat("http://", console));
    const absl::Time give_up = absl::Now() + absl::Seconds(30);
    while (absl::Now() < give_up) {
      httplib::Result r = http.Get("/checkpoint");
      if (r && r->status == 200) return r->body.substr(0, r->body.find('\n'));
      absl::SleepFor(absl::Milliseconds(50));  // a poll, bounded by give_up
    }
    return "";
  }

  TempDir dir_{"pg-shared-state"};
  std::string uri_;
  std::string key_;
};

TEST_F(PgSharedStateTest, TwoServersShareTokensSessionsAndTheOrigin) {
  // The same database under two names: each server's default origin differs.
  const std::string other_uri = absl::StrReplaceAll(uri_, {{"@127.0.0.1:", "@localhost:"}});
  ASSERT_NE(other_uri, uri_);
  auto a = StartServer(uri_, "a", {"--http", "127.0.0.1:0"});
  ASSERT_NE(a, nullptr);
  auto b = StartServer(other_uri, "b", {"--http", "127.0.0.1:0"});
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(LetIn(ReadAs(a->address(), ""))) << "no token yet: both run open";
  EXPECT_TRUE(LetIn(ReadAs(b->address(), "")));

  // Made in the database (never in a folder named after the URI), taken by
  // both at once; from then on both require a token.
  const std::string cwd = fs::current_path().string();
  const std::string chief = CreateToken(uri_, "CHIEF_ARBITER", "Wang Ru");
  ASSERT_FALSE(chief.empty());
  EXPECT_FALSE(fs::exists(cwd + "/postgresql:")) << "the URI taken for a folder name";
  EXPECT_EQ(ReadAs(a->address(), ""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ReadAs(b->address(), ""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(LetIn(ReadAs(a->address(), chief)));
  EXPECT_TRUE(LetIn(ReadAs(b->address(), chief)));

  // A console session opened on A is B's too, and ends on both.
  httplib::Client on_a(absl::StrCat("http://", a->console_address()));
  httplib::Client on_b(absl::StrCat("http://", b->console_address()));
  httplib::Result in = on_a.Post("/login", httplib::Params{{"token", chief}});
  ASSERT_TRUE(in);
  ASSERT_EQ(in->status, 303);
  const std::string cookie = CookieOf(in);
  httplib::Result session_a = on_a.Get("/api/session", {{"Cookie", cookie}});
  httplib::Result session_b = on_b.Get("/api/session", {{"Cookie", cookie}});
  ASSERT_TRUE(session_a && session_b);
  ASSERT_EQ(session_b->status, 200) << session_b->body;
  EXPECT_TRUE(absl::StrContains(session_b->body, "Wang Ru")) << session_b->body;
  EXPECT_EQ(session_a->body, session_b->body) << "the same session, CSRF token included";
  const size_t at = session_b->body.find("\"csrf\":\"");
  ASSERT_NE(at, std::string::npos);
  const std::string csrf = session_b->body.substr(at + 8, 64);
  httplib::Result out =
      on_b.Post("/logout", {{"Cookie", cookie}, {"X-CSRF-Token", csrf}}, "", "text/plain");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->status, 204);
  httplib::Result after = on_a.Get("/api/session", {{"Cookie", cookie}});
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 401) << "signed out on B, so on A: " << after->body;

  // A write through A, signed by whichever holds the lease: both serve
  // checkpoints under the database's origin, the first server's default.
  auto stub = StubFor(a->address());
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer " + chief);
  v1::AppendEventsRequest req;
  req.set_game("games/shared-1");
  *req.add_events() = Created("shared-1", T0());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(stub->AppendEvents(&ctx, req, &resp).ok());
  const std::string origin_a = OriginServedBy(a->console_address());
  const std::string origin_b = OriginServedBy(b->console_address());
  ASSERT_FALSE(origin_a.empty());
  EXPECT_EQ(origin_a, origin_b);
  EXPECT_TRUE(absl::StartsWith(origin_a, "127.0.0.1:")) << origin_a;
  for (const char* state : {"a", "b"}) {
    EXPECT_TRUE(absl::StartsWith(ReadFile(dir_.File(state) + "/ledger.vkey"), origin_a + "+"))
        << state;
  }
  // Asking for another origin explicitly is refused.
  auto renamed = StartServer(uri_, "c", {"--log-origin", "federation.example/other"});
  EXPECT_EQ(renamed, nullptr) << "a server asking for another origin was started";
  EXPECT_TRUE(absl::StrContains(ReadFile(dir_.File("c") + ".serve.log"), "another log"));

  // Revoked through the database: both refuse it within a second.
  const ProcessResult listed = RunArbiter({"token", "list", "--db", uri_});
  ASSERT_EQ(listed.exit, 0) << listed.err;
  const std::string id = listed.out.substr(0, listed.out.find(' '));
  const ProcessResult revoked = RunArbiter({"token", "revoke", id, "--db", uri_});
  ASSERT_EQ(revoked.exit, 0) << revoked.err;
  EXPECT_LT(RefusedWithin(a->address(), chief, absl::Seconds(1)), absl::Seconds(1));
  EXPECT_LT(RefusedWithin(b->address(), chief, absl::Seconds(1)), absl::Seconds(1));

  // A token asked of a --state folder is refused, naming where tokens are.
  const ProcessResult misplaced =
      RunArbiter({"token", "create", "--db", dir_.File("a"), "--role", "AUDITOR", "--name", "x"});
  EXPECT_EQ(misplaced.exit, 2) << misplaced.out;
  EXPECT_TRUE(absl::StrContains(misplaced.err, "--db postgresql://")) << misplaced.err;

  ExpectKeysOnly(dir_.File("a"));
  ExpectKeysOnly(dir_.File("b"));
}

// A --state folder of the previous release, with its tokens.db (one live
// token, one revoked): its tokens move into the database, are taken by
// every server of it, and the old file stays beside, read-only.
TEST_F(PgSharedStateTest, AnEarlierReleasesStateFolderBringsItsTokens) {
  const std::string old = dir_.File("old");
  fs::copy(TestDataPath("upgrade-tokens/data"), old, fs::copy_options::recursive);
  const std::string live = ReadFile(TestDataPath("upgrade-tokens/live.token"));
  const std::string gone = ReadFile(TestDataPath("upgrade-tokens/revoked.token"));
  ASSERT_FALSE(live.empty());
  auto a = StartServer(uri_, "old");
  ASSERT_NE(a, nullptr);
  auto b = StartServer(uri_, "b");
  ASSERT_NE(b, nullptr);
  for (const ServerProcess* s : {a.get(), b.get()}) {
    EXPECT_TRUE(LetIn(ReadAs(s->address(), live.substr(0, live.find('\n')))));
    EXPECT_EQ(ReadAs(s->address(), gone.substr(0, gone.find('\n'))),
              grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(ReadAs(s->address(), ""), grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(fs::status(old + "/tokens.db").permissions() & fs::perms::owner_write, fs::perms::none);
  const ProcessResult listed = RunArbiter({"token", "list", "--db", uri_});
  ASSERT_EQ(listed.exit, 0) << listed.err;
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(listed.out, '\n', absl::SkipEmpty())).size(),
            2u)
      << listed.out;
  EXPECT_TRUE(absl::StrContains(listed.out, "revoked 2026-")) << listed.out;
  EXPECT_FALSE(fs::exists(old + "/ledger.origin")) << "the origin moved into the database";
}

// Cosignatures are the database's (issue 44.5): a witness cosigns what
// server A sends it and A keeps the cosignature in the database; server B,
// whose own witness never answers (nothing listens where it sends), serves
// a ruling's receipt carrying that cosignature, which verifies offline with
// the witness's key.
TEST_F(PgSharedStateTest, ACosignatureOneServerKeptIsInTheOthersReceipts) {
  {
    auto first = StartServer(uri_, "a");  // makes the log's key, origin and ledger.vkey
    ASSERT_NE(first, nullptr);
  }
  const std::string log_vkey_file = dir_.File("a") + "/ledger.vkey";
  const std::string log_vkey(absl::StripTrailingAsciiWhitespace(ReadFile(log_vkey_file)));
  const std::string origin = log_vkey.substr(0, log_vkey.find('+'));
  auto witness = ServerProcess::Start(
      dir_.File("witness"),
      {"--http", "127.0.0.1:0", "--witness-key", dir_.File("w.key"), "--witness-name",
       "federation.test/w", "--witness-for", absl::StrCat(origin, "=", log_vkey)});
  ASSERT_NE(witness, nullptr);
  const std::string witness_vkey(
      absl::StripTrailingAsciiWhitespace(ReadFile(dir_.File("w.key.vkey"))));
  auto a = StartServer(uri_, "a",
                       {"--sign-within", "200ms", "--witness",
                        absl::StrCat("http://", witness->console_address(), "=", witness_vkey)});
  ASSERT_NE(a, nullptr);
  auto b = StartServer(uri_, "b",
                       {"--http", "127.0.0.1:0", "--sign-within", "200ms", "--witness",
                        absl::StrCat("http://127.0.0.1:9=", witness_vkey)});
  ASSERT_NE(b, nullptr);
  const ProcessResult recorded = RunCli(
      {"record", "--replay", TestDataPath("scenarios/public/phone-twice.jsonl")}, "", a->address());
  ASSERT_EQ(recorded.exit, 0) << recorded.err;
  // A's witness cosigns the checkpoint covering the game, and A keeps it.
  ProcessResult witnessed;
  for (int i = 0; i < 100; ++i) {
    witnessed = RunArbiter({"verify", "--db", uri_, "--no-readjudicate", "--witnesses", "1",
                            "--witness", witness_vkey});
    if (witnessed.exit == 0) break;
    absl::SleepFor(absl::Milliseconds(200));  // a poll of the database, bounded
  }
  ASSERT_EQ(witnessed.exit, 0) << witnessed.out << witnessed.err << a->log();
  // B's receipt of the game's first ruling carries it.
  httplib::Client on_b(absl::StrCat("http://", b->console_address()));
  httplib::Result receipt = on_b.Get("/games/phone-twice/rulings/1/receipt");
  ASSERT_TRUE(receipt);
  ASSERT_EQ(receipt->status, 200) << receipt->body;
  EXPECT_TRUE(absl::StrContains(receipt->body, "federation.test/w")) << receipt->body;
  const std::string file = dir_.File("phone-twice-1.tlog-proof");
  WriteFile(file, receipt->body);
  const ProcessResult verified = RunArbiter({"verify", "--receipt", file, "--key", log_vkey_file,
                                             "--witnesses", "1", "--witness", witness_vkey});
  EXPECT_EQ(verified.exit, 0) << verified.out << verified.err;
}

// `arbiter token create` beside a running SQLite server: into the ledger's
// database (no tokens.db of its own), taken at the server's next call, and
// a revocation refused within a second.
TEST(SqliteStateTest, TokensAreMadeInTheLedgerWhileItsServerRuns) {
  TempDir dir("sqlite-state");
  const std::string data = dir.File("data");
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  EXPECT_TRUE(LetIn(ReadAs(server->address(), "")));
  const std::string auditor = CreateToken(data, "AUDITOR", "KPMG");
  ASSERT_FALSE(auditor.empty()) << "arbiter token create beside a running server";
  EXPECT_FALSE(fs::exists(data + "/tokens.db"));
  EXPECT_TRUE(LetIn(ReadAs(server->address(), auditor)));
  EXPECT_EQ(ReadAs(server->address(), ""), grpc::StatusCode::UNAUTHENTICATED);
  const ProcessResult listed = RunArbiter({"token", "list", "--db", data});
  ASSERT_EQ(listed.exit, 0) << listed.err;
  const ProcessResult revoked =
      RunArbiter({"token", "revoke", listed.out.substr(0, listed.out.find(' ')), "--db", data});
  ASSERT_EQ(revoked.exit, 0) << revoked.err;
  EXPECT_LT(RefusedWithin(server->address(), auditor, absl::Seconds(1)), absl::Seconds(1));
}

// A data folder of the previous release (tests/data/upgrade-tokens): its
// tokens are imported once, the live one works and the revoked one stays
// refused, the old file is left read-only, and the ledger keeps its origin
// and verifies.
TEST(SqliteStateTest, AnEarlierReleasesDataFolderKeepsItsTokens) {
  TempDir dir("sqlite-upgrade");
  const std::string data = dir.File("data");
  fs::copy(TestDataPath("upgrade-tokens/data"), data, fs::copy_options::recursive);
  const std::string live = ReadFile(TestDataPath("upgrade-tokens/live.token"));
  const std::string gone = ReadFile(TestDataPath("upgrade-tokens/revoked.token"));
  ASSERT_FALSE(live.empty());
  const ProcessResult listed = RunArbiter({"token", "list", "--db", data});
  ASSERT_EQ(listed.exit, 0) << listed.err;
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(listed.out, '\n', absl::SkipEmpty())).size(),
            2u)
      << listed.out;
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  EXPECT_TRUE(LetIn(ReadAs(server->address(), live.substr(0, live.find('\n')))));
  EXPECT_EQ(ReadAs(server->address(), gone.substr(0, gone.find('\n'))),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ReadAs(server->address(), ""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(fs::status(data + "/tokens.db").permissions() & fs::perms::owner_write,
            fs::perms::none);
  EXPECT_TRUE(absl::StartsWith(ReadFile(data + "/ledger.vkey"), "upgrade.example/venue+"));
  EXPECT_FALSE(fs::exists(data + "/ledger.origin"));
  server->Stop();
  const ProcessResult verified = RunArbiter({"verify", "--db", data});
  EXPECT_EQ(verified.exit, 0) << verified.out << verified.err;
}

}  // namespace
}  // namespace arbiter::testing
