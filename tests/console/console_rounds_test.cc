// The chief arbiter's "start round" on the console, through a real
// `arbiter serve --http`: POST /api/tournaments/{id}/rounds/{n}/start as
// the chief arbiter creates the round's games once; an ARBITER is refused
// as over gRPC (403) and a write without the session's CSRF token too, and
// neither creates anything. The hall carries the button's module.
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/console_client.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::CreateToken;
using ::arbiter::testing::ProcessResult;
using ::arbiter::testing::RunCli;
using ::arbiter::testing::ServerProcess;
using ::arbiter::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

class ConsoleRounds : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = ServerProcess::Start(dir_.path() + "/data", {"--http", "127.0.0.1:0"});
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
    chief_ = CreateToken(dir_.path() + "/data", "CHIEF_ARBITER", "chief");
    arbiter_ = CreateToken(dir_.path() + "/data", "ARBITER", "floor");
    ASSERT_FALSE(chief_.empty());
    ASSERT_FALSE(arbiter_.empty());
    for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
             {"tournament", "create", "--id", "cup", "--system", "swiss", "--rounds", "3",
              "--main-time", "90m", "--player", "A:Li,Wei:5D", "--player", "B:Wang,Ming:4D",
              "--player", "C:Chen,Jie:1K", "--player", "D:Zhou,Yu:2K"},
             {"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"}}) {
      const ProcessResult r = Cli(args);
      ASSERT_EQ(r.exit, 0) << r.err;
    }
  }

  ProcessResult Cli(const std::vector<std::string>& args) {
    return RunCli(args, "", server_->address(), {{"ARBITER_TOKEN", chief_}});
  }

  std::unique_ptr<httplib::Client> Client() { return ::arbiter::testing::ConsoleClient(*server_); }

  // Signs in with `token`: the session cookie and its CSRF token.
  void SignIn(const std::string& token, std::string* cookie, std::string* csrf) {
    httplib::Result r = Client()->Post("/login", httplib::Params{{"token", token}});
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 303);
    const std::string set = r->get_header_value("Set-Cookie");
    *cookie = set.substr(0, set.find(';'));
    httplib::Result s = Client()->Get("/api/session", {{"Cookie", *cookie}});
    ASSERT_TRUE(s && s->status == 200);
    const size_t at = s->body.find("\"csrf\":\"");
    ASSERT_NE(at, std::string::npos);
    *csrf = s->body.substr(at + 8, 64);
  }

  httplib::Result Start(const std::string& cookie, const std::string& csrf, int round = 1) {
    httplib::Headers h{{"Cookie", cookie}};
    if (!csrf.empty()) h.emplace("X-CSRF-Token", csrf);
    return Client()->Post(absl::StrCat("/api/tournaments/cup/rounds/", round, "/start"), h, "{}",
                          "application/json");
  }

  // `arbiter history GAME`'s exit: 0 when the game exists.
  int History(const std::string& game) { return Cli({"history", game, "--json"}).exit; }

  TempDir dir_{"console-rounds"};
  std::unique_ptr<ServerProcess> server_;
  std::string chief_, arbiter_;
};

TEST_F(ConsoleRounds, TheChiefArbiterStartsARoundOnce) {
  std::string cookie, csrf;
  ASSERT_NO_FATAL_FAILURE(SignIn(chief_, &cookie, &csrf));
  httplib::Result r = Start(cookie, csrf);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_THAT(r->body, HasSubstr(R"("gameId":"cup-r1-b1","created":true)"));
  EXPECT_THAT(r->body, HasSubstr(R"("gameId":"cup-r1-b2","created":true)"));
  EXPECT_EQ(History("cup-r1-b1"), 0);
  EXPECT_EQ(History("cup-r1-b2"), 0);
  // The hall lists them at their tables.
  httplib::Result hall = Client()->Get("/api/games", {{"Cookie", cookie}});
  ASSERT_TRUE(hall && hall->status == 200);
  EXPECT_THAT(hall->body, HasSubstr(R"("gameId":"cup-r1-b2")"));
  EXPECT_THAT(hall->body, HasSubstr(R"("table":2)"));

  // Pressed again: the same games, none created.
  httplib::Result again = Start(cookie, csrf);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->status, 200) << again->body;
  EXPECT_THAT(again->body, HasSubstr(R"("gameId":"cup-r1-b1")"));
  EXPECT_THAT(again->body, Not(HasSubstr(R"("created":true)")));

  // A round not paired: the service's refusal, as JSON.
  httplib::Result unpaired = Start(cookie, csrf, 2);
  ASSERT_TRUE(unpaired);
  EXPECT_EQ(unpaired->status, 400);
  EXPECT_THAT(unpaired->body, HasSubstr("not paired"));

  // The hall carries the button's module.
  httplib::Result page = Client()->Get("/", {{"Cookie", cookie}});
  ASSERT_TRUE(page && page->status == 200);
  EXPECT_THAT(page->body, HasSubstr("/static/start-round.js"));
  httplib::Result module = Client()->Get("/static/start-round.js", {{"Cookie", cookie}});
  ASSERT_TRUE(module && module->status == 200);
  EXPECT_THAT(module->body, HasSubstr("/rounds/"));
}

TEST_F(ConsoleRounds, AnArbiterOrAWriteWithoutCsrfIsRefused) {
  std::string cookie, csrf;
  ASSERT_NO_FATAL_FAILURE(SignIn(arbiter_, &cookie, &csrf));
  httplib::Result r = Start(cookie, csrf);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403) << r->body;
  EXPECT_THAT(r->body, HasSubstr("PERMISSION_DENIED"));

  std::string chief_cookie, chief_csrf;
  ASSERT_NO_FATAL_FAILURE(SignIn(chief_, &chief_cookie, &chief_csrf));
  httplib::Result no_csrf = Start(chief_cookie, "");
  ASSERT_TRUE(no_csrf);
  EXPECT_EQ(no_csrf->status, 403);
  EXPECT_NE(History("cup-r1-b1"), 0);
}

// The tournament page once round 1 is started (issue 43): the pairings name
// each player as the player's record gives the name, family then given with
// the space ("Chen Jie"), as the standings do; and while round 1 is in play
// no total counts it (art. 27's 轮次 are the rounds played), so no total is
// −1 with nothing played, and the page says which rounds each total counts.
TEST_F(ConsoleRounds, TheTournamentPageNamesPlayersAsRecordedAndCountsRoundsWithResults) {
  ASSERT_EQ(Cli({"tournament", "start-round", "cup", "--round", "1"}).exit, 0);
  std::string cookie, csrf;
  ASSERT_NO_FATAL_FAILURE(SignIn(arbiter_, &cookie, &csrf));
  httplib::Result page = Client()->Get("/tournaments/cup", {{"Cookie", cookie}});
  ASSERT_TRUE(page);
  ASSERT_EQ(page->status, 200);
  const std::string& body = page->body;
  EXPECT_THAT(body, HasSubstr("<td>Li Wei 5D</td><td>Wang Ming 4D</td>")) << body;
  EXPECT_THAT(body, HasSubstr("<td>Chen Jie 1K</td><td>Zhou Yu 2K</td>"));
  EXPECT_THAT(body, Not(HasSubstr("ChenJie")));
  EXPECT_THAT(body, HasSubstr("<td>Chen Jie</td>"));  // the standings' name
  EXPECT_THAT(body, Not(HasSubstr("-1.00")));
  EXPECT_THAT(body, HasSubstr("<span lang=\"en\">counted: no round yet</span>"));

  // Li Wei (Black) wins on board 1; board 2 plays on. Li Wei: 2 + 0/1 − 1 =
  // 1.00, Wang Ming: 0 + 2/1 − 1 = 1.00; Chen Jie and Zhou Yu count no round.
  // Seconds after its creation (scheduled then): no lateness.
  auto at = [now = std::time(nullptr)](int s) {
    const std::time_t then = now + s;
    std::tm tm{};
    gmtime_r(&then, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(text);
  };
  const std::string events =
      absl::StrCat(R"({"at": ")", at(1), R"(", "gameStarted": {}})", "\n", R"({"at": ")", at(2),
                   R"(", "move": {"color": "BLACK", "point": "Q16"}})", "\n", R"({"at": ")", at(3),
                   R"(", "resign": {"color": "WHITE"}})", "\n");
  const ProcessResult rec = RunCli({"record", "-", "--game", "cup-r1-b1"}, events,
                                   server_->address(), {{"ARBITER_TOKEN", chief_}});
  ASSERT_EQ(rec.exit, 0) << rec.err;
  page = Client()->Get("/tournaments/cup", {{"Cookie", cookie}});
  ASSERT_TRUE(page && page->status == 200);
  EXPECT_THAT(page->body, Not(HasSubstr("-1.00")));
  EXPECT_THAT(page->body, HasSubstr("<td class=\"num\">1.00</td>"));
  EXPECT_THAT(page->body, HasSubstr("<span lang=\"en\">counted: round 1; no round yet for "
                                    "Chen Jie, Zhou Yu</span>"))
      << page->body;

  // The CLI's standings say the same.
  const ProcessResult text = Cli({"tournament", "standings", "cup"});
  EXPECT_EQ(text.exit, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("counted: round 1; no round yet for Chen Jie, Zhou Yu"));
  EXPECT_THAT(text.out, Not(HasSubstr("-1.00")));
}

}  // namespace
