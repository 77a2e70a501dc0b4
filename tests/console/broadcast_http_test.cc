// The public broadcast through a real `arbiter serve --http --broadcast`
// (issue 46.4): its pages need no sign-in and set no cookie, in Chinese and
// in English; every answer carries an ETag and a Cache-Control and a
// matching If-None-Match is 304; nothing of an arbiter's note or a token's
// name is in any of its answers; its event stream resumes with
// Last-Event-ID across a restart of the server, and refuses an id of
// another log (400); bad flags are refused; viewers behind a trusted proxy
// are counted by their own address.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::CreateToken;
using ::arbiter::testing::ProcessResult;
using ::arbiter::testing::RunArbiter;
using ::arbiter::testing::RunCli;
using ::arbiter::testing::ServerProcess;
using ::arbiter::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

std::string At(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// What a raw connection reads from `path` within `wait` (an event stream
// never ends), with `headers` ("Name: value\r\n" lines) sent.
std::string ReadFor(const std::string& address, const std::string& path, const std::string& headers,
                    absl::Duration wait, const std::string& until = "") {
  const size_t colon = address.rfind(':');
  int port = 0;
  if (!absl::SimpleAtoi(address.substr(colon + 1), &port)) return "";
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    close(fd);
    return "";
  }
  const std::string request =
      absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: ", address, "\r\n", headers, "\r\n");
  (void)!write(fd, request.data(), request.size());
  timeval tv{0, 200 * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string got;
  const absl::Time end = absl::Now() + wait;
  char buf[8192];
  while (absl::Now() < end) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n > 0) got.append(buf, static_cast<size_t>(n));
    if (!until.empty() && absl::StrContains(got, until)) break;
  }
  close(fd);
  return got;
}

// A connection holding an event stream open: its answer's head, read.
struct Held {
  int fd = -1;
  std::string head;
  ~Held() {
    if (fd >= 0) close(fd);
  }
};

std::unique_ptr<Held> Hold(const std::string& address, const std::string& headers) {
  auto held = std::make_unique<Held>();
  const size_t colon = address.rfind(':');
  int port = 0;
  if (!absl::SimpleAtoi(address.substr(colon + 1), &port)) return held;
  held->fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  if (connect(held->fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) return held;
  const std::string request =
      absl::StrCat("GET /broadcast/events HTTP/1.1\r\nHost: ", address, "\r\n", headers, "\r\n");
  (void)!write(held->fd, request.data(), request.size());
  timeval tv{5, 0};
  setsockopt(held->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char c;
  while (!absl::EndsWith(held->head, "\r\n\r\n") && read(held->fd, &c, 1) == 1) {
    held->head.push_back(c);
  }
  return held;
}

// The ids of the events in a stream's text, in order.
std::vector<std::string> Ids(const std::string& text) {
  std::vector<std::string> ids;
  for (size_t at = text.find("\nid: "); at != std::string::npos; at = text.find("\nid: ", at + 1)) {
    ids.push_back(text.substr(at + 5, text.find('\n', at + 5) - at - 5));
  }
  return ids;
}

class BroadcastHttpTest : public ::testing::Test {
 protected:
  void Serve(std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), {"--http", "127.0.0.1:0", "--broadcast"});
    server_ = ServerProcess::Start(dir_.path() + "/data", flags);
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
  }

  ProcessResult Cli(const std::vector<std::string>& args, const std::string& input = "",
                    const std::string& token = "") {
    return RunCli(args, input, server_->address(),
                  {{"ARBITER_TOKEN", token.empty() ? chief_ : token}});
  }

  // A tournament "cup" whose round 1 is started: games cup-r1-b1 and
  // cup-r1-b2; board 1 has two moves, and White talked: the chief arbiter
  // decided a warning with a note.
  void PlayRound() {
    chief_ = CreateToken(dir_.path() + "/data", "CHIEF_ARBITER", "Li Wei");
    floor_ = CreateToken(dir_.path() + "/data", "ARBITER", "Zhang San");
    ASSERT_FALSE(chief_.empty());
    ASSERT_NO_FATAL_FAILURE(Serve());
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"tournament", "create", "--id", "cup", "--system", "swiss", "--rounds", "3",
              "--main-time", "90m", "--player", "A:Li,Xuan:5D", "--player", "B:Wang,Ming:4D",
              "--player", "C:Chen,Jie:1K", "--player", "D:Zhou,Yu:2K"},
             {"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"},
             {"tournament", "start-round", "cup", "--round", "1"}}) {
      const ProcessResult r = Cli(args);
      ASSERT_EQ(r.exit, 0) << r.err;
    }
    const absl::Time t = absl::Now();
    const std::string lines = absl::StrCat(
        R"({"at": ")", At(t + absl::Seconds(1)), R"(", "gameStarted": {}})", "\n", R"({"at": ")",
        At(t + absl::Seconds(2)), R"(", "move": {"color": "BLACK", "point": "Q16"}})", "\n",
        R"({"at": ")", At(t + absl::Seconds(3)), R"(", "move": {"color": "WHITE", "point": "D4"}})",
        "\n", R"({"at": ")", At(t + absl::Seconds(4)),
        R"(", "misconduct": {"color": "WHITE", "kind": "TALK"}})", "\n");
    ProcessResult r = Cli({"record", "-", "--game", "cup-r1-b1"}, lines, floor_);
    ASSERT_EQ(r.exit, 0) << r.err;
    r = Cli({"decide", "cup-r1-b1", "1", "WARNING", "--at", At(t + absl::Seconds(5)), "--note",
             "NOTE-7f3a the player's excuse"});
    ASSERT_EQ(r.exit, 0) << r.err << r.out;
  }

  httplib::Result Get(const std::string& path, const httplib::Headers& headers = {}) {
    httplib::Client c(absl::StrCat("http://", server_->console_address()));
    c.set_connection_timeout(5);
    c.set_read_timeout(10);
    return c.Get(path, headers);
  }

  // The log's origin: the first line of its signed checkpoint (signed
  // within --sign-within, 1 s, of the last write).
  std::string Origin() {
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (absl::Now() < deadline) {
      httplib::Result checkpoint = Get("/checkpoint");
      if (checkpoint && checkpoint->status == 200) {
        return checkpoint->body.substr(0, checkpoint->body.find('\n'));
      }
      absl::SleepFor(absl::Milliseconds(100));  // polling for the signature, not a synchronisation
    }
    return "";
  }

  TempDir dir_{"broadcast-http"};
  std::unique_ptr<ServerProcess> server_;
  std::string chief_, floor_;
};

TEST_F(BroadcastHttpTest, PagesNeedNoSignInAndSayItInChineseAndEnglish) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  // The console itself asks for a sign-in; the broadcast does not.
  httplib::Result hall = Get("/");
  ASSERT_TRUE(hall);
  EXPECT_EQ(hall->status, 303);
  struct Page {
    std::string path;
    std::vector<std::string> words;
  };
  const std::vector<Page> pages = {
      {"/broadcast", {"直播", "正在进行的轮次", "第1轮"}},
      {"/broadcast?lang=en", {"Live broadcast", "Rounds being played", "Round 1", "lang=\"en\""}},
      {"/broadcast/cup/1", {"黑方", "手数", "Li Xuan", "Wang Ming", "进行中"}},
      {"/broadcast/cup/1?lang=en", {"Black", "Move", "Li Xuan", "Chen Jie", "playing"}},
      {"/broadcast/cup/1/1", {"<svg", "第1轮", "Li Xuan"}},
      {"/broadcast/cup/1/1?lang=en", {"<svg", "Round 1", "Board 1"}},
  };
  for (const Page& page : pages) {
    httplib::Result r = Get(page.path);
    ASSERT_TRUE(r) << page.path;
    EXPECT_EQ(r->status, 200) << page.path << "\n" << r->body;
    EXPECT_FALSE(r->has_header("Set-Cookie")) << page.path;
    EXPECT_THAT(r->get_header_value("Content-Type"), HasSubstr("text/html")) << page.path;
    EXPECT_THAT(r->body, HasSubstr("name=\"viewport\"")) << page.path;
    for (const std::string& w : page.words) EXPECT_THAT(r->body, HasSubstr(w)) << page.path;
  }
  // The round's move numbers: board 1 at move 2.
  httplib::Result round = Get("/broadcast/cup/1?lang=en");
  ASSERT_TRUE(round);
  EXPECT_THAT(round->body, HasSubstr("<td class=\"num move\">2</td>"));
}

TEST_F(BroadcastHttpTest, EveryAnswerIsCacheableAndRevalidates) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  for (const std::string path : {"/broadcast", "/broadcast/cup/1", "/broadcast/cup/1.sgf",
                                 "/broadcast/cup/1/1", "/broadcast/cup/1/1.sgf"}) {
    httplib::Result r = Get(path);
    ASSERT_TRUE(r) << path;
    ASSERT_EQ(r->status, 200) << path;
    const std::string etag = r->get_header_value("ETag");
    EXPECT_FALSE(etag.empty()) << path;
    EXPECT_EQ(r->get_header_value("Cache-Control"), "public, max-age=1") << path;
    httplib::Result again = Get(path, {{"If-None-Match", etag}});
    ASSERT_TRUE(again) << path;
    EXPECT_EQ(again->status, 304) << path;
    EXPECT_EQ(again->get_header_value("ETag"), etag) << path;
    EXPECT_EQ(again->get_header_value("Cache-Control"), "public, max-age=1") << path;
    EXPECT_TRUE(again->body.empty()) << path;
    httplib::Result other = Get(path, {{"If-None-Match", "\"not-this\""}});
    ASSERT_TRUE(other);
    EXPECT_EQ(other->status, 200) << path;
  }
  // The round's collection: both games, one SGF game tree each.
  httplib::Result sgf = Get("/broadcast/cup/1.sgf");
  ASSERT_TRUE(sgf);
  EXPECT_THAT(sgf->get_header_value("Content-Type"), HasSubstr("application/x-go-sgf"));
  EXPECT_THAT(sgf->body, HasSubstr("GN[cup-r1-b1]"));
  EXPECT_THAT(sgf->body, HasSubstr("GN[cup-r1-b2]"));
  EXPECT_THAT(sgf->body, HasSubstr(";B[pd]"));
  // A finished game is kept longer: board 2 resigned.
  ASSERT_EQ(Cli({"record", "-", "--game", "cup-r1-b2"},
                absl::StrCat(R"({"at": ")", At(absl::Now() + absl::Seconds(5)),
                             R"(", "resign": {"color": "WHITE"}})", "\n"),
                floor_)
                .exit,
            0);
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  std::string control;
  while (absl::Now() < deadline) {
    httplib::Result done = Get("/broadcast/cup/1/2.sgf");
    ASSERT_TRUE(done);
    control = done->get_header_value("Cache-Control");
    if (absl::StrContains(done->body, "RE[B+R]")) break;
  }
  EXPECT_EQ(control, "public, max-age=60");
}

// A board played to two passes: its page says the count is awaited; once the
// dead stones are agreed it crosses them where they stand, as the console's
// does.
TEST_F(BroadcastHttpTest, ACountedBoardCrossesItsDeadStones) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  const absl::Time t = absl::Now();
  int s = 1;
  auto lines = [&](std::initializer_list<const char*> events) {
    std::string out;
    for (const char* e : events) {
      absl::StrAppend(&out, R"({"at": ")", At(t + absl::Seconds(s++)), R"(", )", e, "}\n");
    }
    return out;
  };
  // The board page, once it shows `wanted` (each event is released at once).
  auto page_with = [&](absl::string_view wanted) {
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    std::string page;
    while (absl::Now() < deadline && !absl::StrContains(page, wanted)) {
      httplib::Result board = Get("/broadcast/cup/1/2");
      if (!board) return std::string();
      page = board->body;
    }
    return page;
  };
  ASSERT_EQ(Cli({"record", "-", "--game", "cup-r1-b2"},
                lines({R"("gameStarted": {})", R"("move": {"color": "BLACK", "point": "C3"})",
                       R"("move": {"color": "WHITE", "point": "R17"})",
                       R"("pass": {"color": "BLACK"})", R"("pass": {"color": "WHITE"})"}),
                floor_)
                .exit,
            0);
  // Two passes: play has ended and the count is awaited, said in words.
  std::string page = page_with("终局数子中");
  EXPECT_THAT(page, HasSubstr("终局数子中"));
  EXPECT_THAT(page, HasSubstr("|counting\"")) << "the outcome a viewer's page reloads on";
  ASSERT_EQ(Cli({"record", "-", "--game", "cup-r1-b2"},
                lines({R"("deadStones": {"points": ["R17"]})"}), floor_)
                .exit,
            0);
  page = page_with("data-dead");
  EXPECT_THAT(page, HasSubstr(R"(<path data-dead="R17")"));
  EXPECT_THAT(page, HasSubstr(R"(<circle data-point="R17")")) << "the stone stays, crossed";
  EXPECT_THAT(page, Not(HasSubstr(R"(data-dead="C3")")));
  EXPECT_THAT(page, Not(HasSubstr("终局数子中")));
}

// The chief arbiter's note and the tokens' holders (the stamped actors
// "Li Wei (CHIEF_ARBITER, token ...)", "Zhang San (ARBITER, ...)") are in
// the ledger; no broadcast answer carries any of them.
TEST_F(BroadcastHttpTest, NoNoteAndNoTokensNameInAnyAnswer) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  const ProcessResult history = Cli({"history", "cup-r1-b1", "--json"});
  ASSERT_EQ(history.exit, 0);
  ASSERT_THAT(history.out, HasSubstr("NOTE-7f3a"));
  ASSERT_THAT(history.out, HasSubstr("Zhang San (ARBITER, token"));
  std::vector<std::string> answers;
  for (const std::string path :
       {"/broadcast", "/broadcast?lang=en", "/broadcast/cup/1", "/broadcast/cup/1?lang=en",
        "/broadcast/cup/1.sgf", "/broadcast/cup/1/1", "/broadcast/cup/1/1?lang=en",
        "/broadcast/cup/1/1.sgf"}) {
    httplib::Result r = Get(path);
    ASSERT_TRUE(r && r->status == 200) << path;
    answers.push_back(r->body);
  }
  // The whole stream from the log's start.
  const std::string origin = Origin();
  ASSERT_FALSE(origin.empty());
  const std::string stream =
      ReadFor(server_->console_address(), "/broadcast/events",
              absl::StrCat("Last-Event-ID: ", origin, "/0\r\n"), absl::Seconds(3), "\"misconduct");
  EXPECT_THAT(stream, HasSubstr("event: board"));
  answers.push_back(stream);
  for (const std::string& a : answers) {
    for (const char* secret : {"NOTE-7f3a", "Li Wei", "Zhang San", "token", "CHIEF_ARBITER"}) {
      EXPECT_THAT(a, Not(HasSubstr(secret))) << a.substr(0, 2000);
    }
  }
}

TEST_F(BroadcastHttpTest, TheStreamResumesAcrossARestartAndRefusesAnotherLog) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  const std::string origin = Origin();
  ASSERT_FALSE(origin.empty());
  const std::string before =
      ReadFor(server_->console_address(), "/broadcast/events",
              absl::StrCat("Last-Event-ID: ", origin, "/0\r\n"), absl::Seconds(3));
  EXPECT_THAT(before, HasSubstr("X-Accel-Buffering: no")) << "a proxy would hold the events back";
  EXPECT_THAT(before, HasSubstr("Cache-Control: no-store"));
  const std::vector<std::string> seen = Ids(before);
  ASSERT_GE(seen.size(), 4u) << before;
  // The viewer had the first three when the server stopped.
  const std::string last = seen[2];
  ASSERT_EQ(server_->Stop(), 0);
  ASSERT_NO_FATAL_FAILURE(Serve());
  ASSERT_EQ(Cli({"record", "-", "--game", "cup-r1-b1"},
                absl::StrCat(R"({"at": ")", At(absl::Now() + absl::Seconds(6)),
                             R"(", "move": {"color": "BLACK", "point": "C3"}})", "\n"),
                floor_)
                .exit,
            0);
  const std::string after =
      ReadFor(server_->console_address(), "/broadcast/events",
              absl::StrCat("Last-Event-ID: ", last, "\r\n"), absl::Seconds(3));
  std::vector<std::string> expected(seen.begin() + 3, seen.end());
  std::vector<std::string> resumed = Ids(after);
  ASSERT_GT(resumed.size(), expected.size()) << after;
  EXPECT_EQ(std::vector<std::string>(resumed.begin(), resumed.begin() + expected.size()), expected)
      << "the events after the viewer's last, in order, none skipped, none twice";
  EXPECT_THAT(after, HasSubstr("\"moveNumber\":3"));

  const std::string refused =
      ReadFor(server_->console_address(), "/broadcast/events",
              "Last-Event-ID: another.example/log/3\r\n", absl::Seconds(2), "}}");
  EXPECT_THAT(refused, HasSubstr("HTTP/1.1 400"));
  EXPECT_THAT(refused, HasSubstr("another log"));
}

// With --broadcast-delay 2s a move recorded when nothing else comes is
// released by the server's own timer (on the console's loop), 2 s after it
// arrived: not before, and without a later commit to wake it.
TEST_F(BroadcastHttpTest, AHeldMoveIsReleasedWhenItsDelayRunsOut) {
  ASSERT_NO_FATAL_FAILURE(PlayRound());
  const std::string origin = Origin();
  ASSERT_FALSE(origin.empty());
  const std::vector<std::string> seen =
      Ids(ReadFor(server_->console_address(), "/broadcast/events",
                  absl::StrCat("Last-Event-ID: ", origin, "/0\r\n"), absl::Seconds(3)));
  ASSERT_FALSE(seen.empty());
  ASSERT_EQ(server_->Stop(), 0);
  ASSERT_NO_FATAL_FAILURE(Serve({"--broadcast-delay", "2s"}));
  std::unique_ptr<Held> viewer =
      Hold(server_->console_address(), absl::StrCat("Last-Event-ID: ", seen.back(), "\r\n"));
  ASSERT_THAT(viewer->head, HasSubstr("200"));
  const absl::Time before = absl::Now();
  // Dated after PlayRound's last event (5 s ahead), within the allowed skew.
  const ProcessResult recorded =
      Cli({"record", "-", "--game", "cup-r1-b1"},
          absl::StrCat(R"({"at": ")", At(absl::Now() + absl::Seconds(6)),
                       R"(", "move": {"color": "BLACK", "point": "C3"}})", "\n"),
          floor_);
  ASSERT_EQ(recorded.exit, 0) << recorded.err;
  std::string got;
  char buf[4096];
  while (!absl::StrContains(got, "\"C3\"") && absl::Now() < before + absl::Seconds(15)) {
    const ssize_t n = read(viewer->fd, buf, sizeof buf);
    if (n == 0) break;
    if (n > 0) got.append(buf, static_cast<size_t>(n));
  }
  const absl::Duration waited = absl::Now() - before;
  ASSERT_THAT(got, HasSubstr("event: move")) << got;
  EXPECT_GE(waited, absl::Seconds(2)) << "released before its delay ran out";
  EXPECT_LT(waited, absl::Seconds(6)) << "released long after its delay";
}

TEST_F(BroadcastHttpTest, BadFlagsAreRefused) {
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--http", "127.0.0.1:0", "--broadcast", "--broadcast-delay", "61m"},
           {"--http", "127.0.0.1:0", "--broadcast", "--broadcast-delay", "-5s"}}) {
    std::vector<std::string> args = {"serve", "--db", dir_.path() + "/bad", "--listen",
                                     "127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult r = RunArbiter(args);
    EXPECT_EQ(r.exit, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("0s to 60m")) << r.err;
  }
  const ProcessResult proxy =
      RunArbiter({"serve", "--db", dir_.path() + "/bad", "--listen", "127.0.0.1:0", "--http",
                  "127.0.0.1:0", "--broadcast", "--trusted-proxy", "cdn.example"});
  EXPECT_EQ(proxy.exit, 2);
  EXPECT_THAT(proxy.err, HasSubstr("--trusted-proxy: an IP address"));
  const ProcessResult alone = RunArbiter({"serve", "--db", dir_.path() + "/bad", "--listen",
                                          "127.0.0.1:0", "--broadcast-delay", "5m"});
  EXPECT_EQ(alone.exit, 2);
  EXPECT_THAT(alone.err, HasSubstr("need --broadcast"));
}

// Two viewers per address at most; three viewers arriving through a proxy
// on 127.0.0.1 are three addresses when the proxy is trusted, and one (the
// third refused) when it is not.
TEST_F(BroadcastHttpTest, ViewersThroughATrustedProxyAreCountedByTheirOwnAddress) {
  for (const bool trusted : {true, false}) {
    std::vector<std::string> flags = {"--http-feeds-per-caller", "2"};
    if (trusted) flags.insert(flags.end(), {"--trusted-proxy", "127.0.0.1"});
    ASSERT_NO_FATAL_FAILURE(Serve(flags));
    std::vector<std::unique_ptr<Held>> held;
    int refused = 0;
    for (const char* viewer : {"198.51.100.1", "198.51.100.2", "198.51.100.3"}) {
      held.push_back(
          Hold(server_->console_address(), absl::StrCat("X-Forwarded-For: ", viewer, "\r\n")));
      if (absl::StrContains(held.back()->head, "HTTP/1.1 503")) ++refused;
      if (!trusted) {
        EXPECT_EQ(absl::StrContains(held.back()->head, "HTTP/1.1 200"), held.size() <= 2)
            << held.back()->head;
      }
    }
    EXPECT_EQ(refused, trusted ? 0 : 1) << "trusted proxy: " << trusted;
    if (!trusted) EXPECT_THAT(held.back()->head, HasSubstr("Retry-After"));
    // And a viewer's own three streams are still capped behind the proxy.
    if (trusted) {
      held.push_back(Hold(server_->console_address(), "X-Forwarded-For: 198.51.100.1\r\n"));
      held.push_back(Hold(server_->console_address(), "X-Forwarded-For: 198.51.100.1\r\n"));
      EXPECT_THAT(held[3]->head, HasSubstr("HTTP/1.1 200"));
      EXPECT_THAT(held[4]->head, HasSubstr("HTTP/1.1 503"));
    }
    held.clear();
    server_.reset();
  }
}

// The caps fit the open-file limit (issue 46.5, file_budget.h): under a
// limit of 1024 (128 files each for the server's own, gRPC and the
// console's connections), --http-feeds 637 leaves the broadcast 3 viewers;
// a fourth is answered 503 with Retry-After, and the server goes on
// serving. A --http-feeds beyond the budget is refused at start. The limit
// is lowered for the rest of this process (ctest runs each test alone).
TEST_F(BroadcastHttpTest, AViewerBeyondTheOpenFileBudgetIsRefusedCleanly) {
  rlimit low{1024, 1024};
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  const ProcessResult beyond =
      RunArbiter({"serve", "--db", dir_.path() + "/bad", "--listen", "127.0.0.1:0", "--http",
                  "127.0.0.1:0", "--broadcast", "--http-feeds", "640"});
  EXPECT_EQ(beyond.exit, 2) << beyond.err;
  EXPECT_THAT(beyond.err, HasSubstr("--http-feeds 640: the open-file limit (ulimit -n) 1024"));

  ASSERT_NO_FATAL_FAILURE(Serve({"--http-feeds", "637"}));
  std::vector<std::unique_ptr<Held>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(Hold(server_->console_address(), ""));
    EXPECT_THAT(held.back()->head, HasSubstr("HTTP/1.1 200")) << i;
  }
  const std::string refused = ReadFor(server_->console_address(), "/broadcast/events", "",
                                      absl::Seconds(5), "follow the broadcast");
  EXPECT_THAT(refused, HasSubstr("HTTP/1.1 503"));
  EXPECT_THAT(refused, HasSubstr("Retry-After: 10"));
  EXPECT_THAT(refused, HasSubstr("at most 3 viewers follow the broadcast"));
  httplib::Result page = Get("/broadcast");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  // A viewer gone gives its place to the next, once the server has seen it
  // go (its close reaches the followers' loop a moment later): until then a
  // newcomer is refused as above, so ask again, for at most 10 s.
  held.pop_back();
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  bool admitted = false;
  while (!admitted && absl::Now() < deadline) {
    std::unique_ptr<Held> next = Hold(server_->console_address(), "");
    admitted = absl::StrContains(next->head, "HTTP/1.1 200");
    if (admitted) {
      held.push_back(std::move(next));
    } else {
      EXPECT_THAT(next->head, HasSubstr("HTTP/1.1 503"));
    }
  }
  EXPECT_TRUE(admitted) << "the place a viewer left was not given to the next";
}

}  // namespace
