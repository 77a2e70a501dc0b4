// `arbiter record` and its neighbours from the outside, against real
// servers: the whole file is checked before anything is sent (issue 29.5), a
// bulk import waits out the write-rate limit and finishes with nothing
// doubled (27.7), choices are taken in any case, `watch --until-caught-up`
// stops after the catch-up, and a game is created only with both players.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr char kNobody[] = "127.0.0.1:1";  // never listening

// One event line of game `game` at 09:MM:SS on 1 May 2026.
std::string Line(int second, const std::string& kind_json) {
  return absl::StrCat("{\"at\": \"2026-05-01T09:", absl::Dec(second / 60, absl::kZeroPad2), ":",
                      absl::Dec(second % 60, absl::kZeroPad2), "Z\", ", kind_json, "}\n");
}

std::string Created(const std::string& game) {
  return Line(0, absl::StrCat("\"gameCreated\": {\"gameId\": \"", game,
                              "\", \"black\": {\"name\": \"Li Wei\"}, \"white\": {\"name\": "
                              "\"Wang Fang\"}}"));
}

std::string Move(int second, const char* color, const std::string& point) {
  return Line(second,
              absl::StrCat("\"move\": {\"color\": \"", color, "\", \"point\": \"", point, "\"}"));
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

class CliRecordTest : public ::testing::Test {
 protected:
  void Start(const std::vector<std::string>& flags = {}) {
    server_ = ServerProcess::Start(dir_.File("data"), flags);
    ASSERT_NE(server_, nullptr);
  }
  ProcessResult Cli(const std::vector<std::string>& args, const std::string& input = "") {
    return RunCli(args, input, server_->address());
  }
  std::string File(const std::string& name, const std::string& contents) {
    WriteFile(dir_.File(name), contents);
    return dir_.File(name);
  }
  std::unique_ptr<v1::Arbiter::Stub> Stub() {
    return v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }
  // The game as the server has it.
  v1::Game Get(const std::string& game) {
    auto stub = Stub();
    grpc::ClientContext context;
    v1::GetGameRequest req;
    req.set_name("games/" + game);
    v1::Game out;
    const grpc::Status s = stub->GetGame(&context, req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
  // The game's revision (its number of events), or 0 when it does not exist.
  uint64_t Revision(const std::string& game) {
    auto stub = Stub();
    grpc::ClientContext context;
    v1::GetGameRequest req;
    req.set_name("games/" + game);
    v1::Game out;
    const grpc::Status s = stub->GetGame(&context, req, &out);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) return 0;
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out.revision();
  }

  TempDir dir_{"arbiter-cli-record"};
  std::unique_ptr<ServerProcess> server_;
};

// A file whose later line is bad leaves nothing in the ledger: not line 1's
// half game. Each check (JSON, shape, time order within a game) is made on
// the whole file before the first line is sent.
TEST_F(CliRecordTest, ABadLineAnywhereSendsNothing) {
  Start();
  struct Case {
    std::string name;
    std::string contents;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"json", Created("half-json") + "{\"at\": \"2026-05-01T09:00:05Z\", \"phoneRang\": {\n",
       "line 2: Unexpected end of string"},
      {"no-kind", Created("half-kind") + "{\"at\": \"2026-05-01T09:00:05Z\"}\n",
       "line 2: the event has no kind"},
      {"no-time", Created("half-time") + "{\"phoneRang\": {\"color\": \"BLACK\"}}\n",
       "line 2: the event has no time"},
      {"order", Created("half-order") + Move(10, "BLACK", "Q16") + Move(5, "WHITE", "D4"),
       "line 3: time 2026-05-01T09:00:05Z is earlier than line 2's 2026-05-01T09:00:10Z"},
      // The second game's bad line keeps the first game out too.
      {"second-game",
       Created("half-first") + Move(10, "BLACK", "Q16") + Created("half-second") +
           Move(20, "BLACK", "Q16") + "{\"at\": \"2026-05-01T09:00:30Z\", \"nosuchKind\": {}}\n",
       "line 5"},
      {"twice", Created("half-twice") + Created("half-twice"),
       "line 2: game 'half-twice' is created again (line 1 created it)"},
      // A new game's checks (CheckNewGame), made before anything is sent.
      {"time-control",
       Created("half-first-tc") +
           Line(0,
                "\"gameCreated\": {\"gameId\": \"half-tc\", \"black\": {\"name\": \"A\"}, "
                "\"white\": {\"name\": \"B\"}, \"timeControl\": {\"mainTime\": \"600s\", "
                "\"byoYomi\": {\"periods\": 0, \"periodTime\": \"30s\"}}}"),
       "line 2: timeControl.byoYomi needs periods of at least 1"},
  };
  for (const Case& c : cases) {
    const std::string path = File(c.name + ".jsonl", c.contents);
    const ProcessResult r = Cli({"record", path});
    EXPECT_EQ(r.exit, 2) << c.name << ": " << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, c.says)) << c.name << ": " << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, "nothing was sent")) << c.name << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << c.name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.name << ": " << r.out;
  }
  for (const char* game : {"half-json", "half-kind", "half-time", "half-order", "half-first",
                           "half-second", "half-twice", "half-first-tc", "half-tc"}) {
    EXPECT_EQ(Revision(game), 0u) << game << " was (partly) recorded";
  }
  // The same lines from stdin are checked alike.
  const ProcessResult piped = Cli({"record", "-"}, cases[0].contents);
  EXPECT_EQ(piped.exit, 2) << piped.err;
  EXPECT_EQ(Revision("half-json"), 0u);
  // --follow is for a live pipe: each line is sent as it comes.
  const ProcessResult followed = Cli({"record", "-", "--follow"}, cases[0].contents);
  EXPECT_EQ(followed.exit, 2) << followed.err;
  EXPECT_TRUE(absl::StrContains(followed.err, "line 2: ")) << followed.err;
  EXPECT_EQ(Revision("half-json"), 1u);
}

// A bulk import of more events than the write-rate limit allows per second
// (and than its burst) finishes: each refused call is tried again after a
// backoff, said on stderr, under the same idempotency key, so every event is
// recorded once.
TEST_F(CliRecordTest, ABulkImportWaitsOutTheWriteRateLimit) {
  // 10 writes a second, a burst of 20: the limit is met as long as a call
  // takes under 68 ms (20 + 10 x 64 calls' time < 64), even on a slow disk.
  Start({"--write-rate", "10"});
  constexpr int kEvents = 64;
  std::string lines = Created("bulk") + Line(1, "\"gameStarted\": {}");
  // Stones on every other point of every other row: none touches another.
  constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  for (int i = 0; i < kEvents - 2; ++i) {
    const std::string point =
        absl::StrCat(std::string(1, kColumns[2 * (i % 10)]), 1 + 2 * (i / 10));
    lines += Move(2 + i, i % 2 == 0 ? "BLACK" : "WHITE", point);
  }
  const std::string path = File("bulk.jsonl", lines);
  const absl::Time start = absl::Now();
  const ProcessResult r = Cli({"record", path});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat("recorded ", kEvents, " event(s)"))) << r.out;
  EXPECT_EQ(Revision("bulk"), static_cast<uint64_t>(kEvents)) << "every event once";
  // The limit was met and waited out, and the waiting said so.
  EXPECT_TRUE(absl::StrContains(r.err, "rate limit")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "with the same idempotency key")) << r.err;
  for (const std::string& notice : Lines(r.err)) {
    EXPECT_TRUE(absl::StartsWith(notice, "arbiter record: " + path + ": line ")) << notice;
    EXPECT_TRUE(absl::StrContains(notice, "; retry ")) << notice;
  }
  EXPECT_GE(absl::Now() - start, absl::Seconds(4)) << "44 events past the burst at 10 a second";
}

// A refusal that names when the next write is allowed is retried then, not
// sooner: at one write a second, two retries of 100 and 200 ms would be
// refused again and end the run; each line waits its second and is recorded.
TEST_F(CliRecordTest, ARetryWaitsAsLongAsTheRefusalSays) {
  Start({"--write-rate", "1"});  // a burst of 2
  const std::string path = File("slow.jsonl", Created("slow") + Line(1, "\"gameStarted\": {}") +
                                                  Move(2, "BLACK", "Q16") + Move(3, "WHITE", "D4"));
  const ProcessResult r = Cli({"record", path, "--retries", "2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(Revision("slow"), 4u) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "the next is allowed in ")) << r.err;
}

// The retries are bounded: a server that stays away ends the run (exit 3)
// after --retries tries, each said.
TEST_F(CliRecordTest, RetriesAreBounded) {
  const std::string path = File("one.jsonl", Created("away"));
  const ProcessResult r = RunCli({"record", path, "--retries", "2"}, "", kNobody);
  EXPECT_EQ(r.exit, 3) << r.err;
  const std::vector<std::string> err = Lines(r.err);
  ASSERT_EQ(err.size(), 3u) << r.err;
  EXPECT_TRUE(absl::StrContains(err[0], "line 1: ")) << err[0];
  EXPECT_TRUE(absl::StrContains(err[0], "retry 1 of 2")) << err[0];
  EXPECT_TRUE(absl::StrContains(err[1], "retry 2 of 2")) << err[1];
  EXPECT_TRUE(absl::StrContains(err[2], "UNAVAILABLE")) << err[2];
  EXPECT_TRUE(absl::StrContains(err[2], "is `arbiter serve` running")) << err[2];
  // --retries 0: no retry at all.
  const ProcessResult once = RunCli({"record", path, "--retries", "0"}, "", kNobody);
  EXPECT_EQ(once.exit, 3);
  EXPECT_EQ(Lines(once.err).size(), 1u) << once.err;
}

// `decide G N warning` is `decide G N WARNING`, and the decision records the
// option's own id; other choices are taken in any case too.
TEST_F(CliRecordTest, ChoicesAreCaseInsensitive) {
  Start();
  const std::string path = File(
      "talk.jsonl", Created("talk") + Line(1, "\"gameStarted\": {}") + Move(10, "BLACK", "Q16") +
                        Line(20, "\"misconduct\": {\"color\": \"BLACK\", \"kind\": \"TALK\"}"));
  ASSERT_EQ(Cli({"record", path}).exit, 0);
  v1::Game game;
  {
    grpc::ClientContext context;
    v1::GetGameRequest req;
    req.set_name("games/talk");
    ASSERT_TRUE(Stub()->GetGame(&context, req, &game).ok());
  }
  ASSERT_EQ(game.pending_rulings_size(), 1);
  const std::string number = absl::StrCat(game.pending_rulings(0).number());
  const ProcessResult r = Cli({"decide", "talk", number, "warning", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "\"choice\":\"WARNING\"")) << r.out;
  // A choice that is no option is still refused, naming the options.
  const ProcessResult none = Cli({"decide", "talk", number, "maybe"});
  EXPECT_EQ(none.exit, 2) << none.err;

  const ProcessResult rapid = Cli({"game", "create", "--id", "rapid", "--black", "B", "--white",
                                   "W", "--venue", "rapid", "--json"});
  EXPECT_EQ(rapid.exit, 0) << rapid.err;
  EXPECT_TRUE(absl::StrContains(rapid.out, "\"venue\":\"RAPID\"")) << rapid.out;
  const ProcessResult role = RunCli(
      {"token", "create", "--role", "software", "--name", "broadcast", "--db", dir_.File("other")});
  EXPECT_EQ(role.exit, 0) << role.err;
}

// `watch --until-caught-up` prints what is recorded and stops; its last line
// says so rather than "following".
TEST_F(CliRecordTest, WatchUntilCaughtUpStopsAfterTheCatchUp) {
  Start();
  ASSERT_EQ(Cli({"record", File("w.jsonl", Created("watched") + Move(10, "BLACK", "Q16"))}).exit,
            0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"watch", "watched", "--until-caught-up"},
        std::vector<std::string>{"watch", "--all", "--until-caught-up"}}) {
    const absl::Time start = absl::Now();
    const ProcessResult r = Cli(args);
    EXPECT_EQ(r.exit, 0) << r.err;
    EXPECT_LT(absl::Now() - start, absl::Seconds(10));
    const std::vector<std::string> out = Lines(r.out);
    ASSERT_EQ(out.size(), 3u) << r.out;
    EXPECT_TRUE(absl::StartsWith(out[2], "-- caught up at ")) << out[2];
    EXPECT_TRUE(absl::StrContains(out[2], "stopped")) << out[2];
    EXPECT_FALSE(absl::StrContains(r.out, "following")) << r.out;
  }
}

// `game create` needs both players, and so does CreateGame itself.
TEST_F(CliRecordTest, AGameNeedsBothPlayers) {
  Start();
  ProcessResult r = Cli({"game", "create", "--id", "alone", "--black", "Li Wei"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "missing --white")) << r.err;
  r = Cli({"game", "create", "--id", "nobody"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "missing --black")) << r.err;

  auto stub = Stub();
  v1::CreateGameRequest req;
  req.mutable_game()->set_game_id("no-players");
  req.mutable_game()->set_board_size(19);
  auto create = [&] {
    grpc::ClientContext context;
    v1::Game out;
    return stub->CreateGame(&context, req, &out);
  };
  grpc::Status s = create();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "game.black.name: ")) << s.error_message();
  req.mutable_game()->mutable_black()->set_name("Li Wei");
  req.mutable_game()->mutable_white()->set_name("  ");
  s = create();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "game.white.name: ")) << s.error_message();
  // Blank but for their bytes (an outside probe had them all accepted): no-break, zero-width,
  // ideographic spaces and a direction override are no name; a control character is in none.
  for (const std::string blank :
       {"\xc2\xa0", "\xe2\x80\x8b", "\xe3\x80\x80 ", "\xe2\x80\xae", "\xef\xbb\xbf"}) {
    req.mutable_game()->mutable_white()->set_name(blank);
    s = create();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << absl::CHexEscape(blank);
    EXPECT_TRUE(absl::StrContains(s.error_message(), "white's name is missing"))
        << s.error_message();
  }
  for (const std::string& control : {std::string("Li\0Wei", 6), std::string("\x1b[31mWang")}) {
    req.mutable_game()->mutable_white()->set_name(control);
    s = create();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << absl::CHexEscape(control);
    EXPECT_TRUE(absl::StrContains(s.error_message(), "no control characters")) << s.error_message();
  }
  EXPECT_EQ(Revision("no-players"), 0u);
  // Names in any script, with their spaces, stay names.
  req.mutable_game()->mutable_white()->set_name("\xe7\x8e\x8b\xe3\x80\x80\xe8\x8a\xb3");
  s = create();
  EXPECT_TRUE(s.ok()) << s.error_message();
  req.mutable_game()->set_game_id("no-players-2");
  req.mutable_game()->mutable_white()->set_name("Wang Fang");
  s = create();
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Revision("no-players"), 1u);
  EXPECT_EQ(Revision("no-players-2"), 1u);
}

// A name is one line: tab, CR and LF are control characters like any other
// (service.proto). An outside probe had "Li Wei\nRESULT: ..." accepted, and
// `arbiter show` printed the forged line under the players.
TEST_F(CliRecordTest, ANameHoldsNoLineBreakOrTab) {
  Start();
  auto stub = Stub();
  v1::CreateGameRequest req;
  req.mutable_game()->set_board_size(19);
  req.mutable_game()->mutable_white()->set_name("Wang Fang");
  int n = 0;
  for (const std::string name : {"Li Wei\nRESULT: W+R confirmed by the chief arbiter", "Li Wei\r",
                                 "Li\r\nWei", "Li\tWei", "\nLi Wei"}) {
    req.mutable_game()->set_game_id(absl::StrCat("line-", ++n));
    req.mutable_game()->mutable_black()->set_name(name);
    grpc::ClientContext context;
    v1::Game out;
    const grpc::Status s = stub->CreateGame(&context, req, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << absl::CHexEscape(name);
    EXPECT_TRUE(absl::StartsWith(s.error_message(), "game.black.name: ")) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "no control characters")) << s.error_message();
    EXPECT_EQ(Revision(req.game().game_id()), 0u) << absl::CHexEscape(name);
  }
  const ProcessResult r = Cli(
      {"game", "create", "--id", "line-cli", "--black", "Li Wei\nRESULT", "--white", "Wang Fang"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(Revision("line-cli"), 0u);
}

// Issue 43.8: `game create` is stamped with the server's clock to the
// nanosecond; the lines recorded right after it are written to the second,
// as people (and the README's examples) write times, and fall in the same
// second. DOMAIN.md §3: a time to the second names that whole second, so it
// is not earlier than the stamp, and the game counts on from the stamp, the
// later of the two instants.
TEST_F(CliRecordTest, LinesToTheSecondFollowACreationStampedInThatSecond) {
  Start();
  const ProcessResult created =
      Cli({"game", "create", "--id", "same-second", "--black", "Li Wei", "--white", "Wang Fang"});
  ASSERT_EQ(created.exit, 0) << created.err;
  const google::protobuf::Timestamp stamp = Get("same-second").state().as_of();
  const std::string second = absl::FormatTime(
      "%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(stamp.seconds()), absl::UTCTimeZone());
  const std::string path =
      File("same-second.jsonl",
           absl::StrCat("{\"at\": \"", second, "\", \"gameStarted\": {}}\n", "{\"at\": \"", second,
                        "\", \"move\": {\"color\": \"BLACK\", \"point\": \"Q16\"}}\n"));
  const ProcessResult r = Cli({"record", "--game", "same-second", path});
  ASSERT_EQ(r.exit, 0) << r.err;
  const v1::Game game = Get("same-second");
  EXPECT_EQ(game.revision(), 3u);
  EXPECT_EQ(game.state().as_of().seconds(), stamp.seconds());
  EXPECT_EQ(game.state().as_of().nanos(), stamp.nanos());
}

}  // namespace
}  // namespace arbiter::testing
