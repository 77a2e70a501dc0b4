// The web console's HTTP layer through a real `arbiter serve --http` on
// 127.0.0.1, with an HTTP client and the CLI: escaping, cookie flags, CSRF
// refusal, sign-in, and the same role rules as gRPC (an ARBITER cannot
// decide the chief arbiter's clause, an AUDITOR cannot decide at all).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/console_client.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::ProcessResult;
using ::arbiter::testing::RunArbiter;
using ::arbiter::testing::RunCli;
using ::arbiter::testing::ServerProcess;
using ::arbiter::testing::TempDir;

constexpr char kScript[] = "<script>alert(1)</script>";

// A game whose clock fails in absolute time: 12.4.6 leaves the ruling to the
// chief arbiter. Black's name is a script.
std::string Game(const std::string& id) {
  return absl::StrCat(
      R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": ")", id,
      R"(", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "<script>alert(1)</script>", "rank": "6d"}, "white": {"name": "Zhou Rui", "rank": "6d"}, "venue": "SAME_SITE", "scheduledStart": "2026-06-02T09:00:00Z", "timeControl": {"mainTime": "3600s"}}})"
      "\n"
      R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})"
      "\n"
      R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"
      "\n"
      R"({"at": "2026-06-02T09:00:20Z", "clockMalfunction": {"errorPerHour": "30s", "blackUsed": "10s", "whiteUsed": "10s"}})"
      "\n");
}

class ConsoleHttpTest : public ::testing::Test {
 protected:
  void Serve() {
    server_ = ServerProcess::Start(dir_.path() + "/data", {"--http", "127.0.0.1:0"});
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
  }

  std::unique_ptr<httplib::Client> Client() { return ::arbiter::testing::ConsoleClient(*server_); }

  std::string Token(const std::string& role, const std::string& name) {
    std::string token = ::arbiter::testing::CreateToken(dir_.path() + "/data", role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  void Record(const std::string& id, const std::string& token = "") {
    std::vector<std::pair<std::string, std::string>> env;
    if (!token.empty()) env.push_back({"ARBITER_TOKEN", token});
    const ProcessResult r = RunCli({"record", "-"}, Game(id), server_->address(), env);
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  std::string History(const std::string& id, const std::string& token = "") {
    std::vector<std::pair<std::string, std::string>> env;
    if (!token.empty()) env.push_back({"ARBITER_TOKEN", token});
    const ProcessResult r = RunCli({"history", id, "--json"}, "", server_->address(), env);
    EXPECT_EQ(r.exit, 0) << r.err;
    return r.out;
  }

  // Signs in with `token`: the session cookie ("arbiter_session=...").
  std::string SignIn(const std::string& token) {
    std::string cookie = ::arbiter::testing::SignIn(*server_, token);
    EXPECT_FALSE(cookie.empty()) << "no session for the token";
    return cookie;
  }

  // The session's CSRF token, from /api/session.
  std::string Csrf(const std::string& cookie) {
    httplib::Result r = Client()->Get("/api/session", {{"Cookie", cookie}});
    EXPECT_TRUE(r && r->status == 200);
    if (!r) return "";
    const size_t at = r->body.find("\"csrf\":\"");
    if (at == std::string::npos) return "";
    return r->body.substr(at + 8, 64);
  }

  httplib::Result Decide(const std::string& cookie, const std::string& csrf,
                         const std::string& game, const std::string& choice) {
    httplib::Headers h{{"Cookie", cookie}};
    if (!csrf.empty()) h.emplace("X-CSRF-Token", csrf);
    return Client()->Post(absl::StrCat("/api/games/", game, "/rulings/1/decide"), h,
                          absl::StrCat(R"({"choice": ")", choice, R"("})"), "application/json");
  }

  TempDir dir_{"console-http-test"};
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(ConsoleHttpTest, OpenOnLoopbackWithStrictCookieAndHeaders) {
  Serve();
  httplib::Result r = Client()->Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  const std::string cookie = r->get_header_value("Set-Cookie");
  EXPECT_TRUE(absl::StartsWith(cookie, "arbiter_session=")) << cookie;
  EXPECT_TRUE(absl::StrContains(cookie, "; HttpOnly")) << cookie;
  EXPECT_TRUE(absl::StrContains(cookie, "; SameSite=Strict")) << cookie;
  EXPECT_TRUE(absl::StrContains(cookie, "; Path=/")) << cookie;
  EXPECT_TRUE(
      absl::StrContains(r->get_header_value("Content-Security-Policy"), "script-src 'self'"));
  EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_TRUE(absl::StrContains(r->body, "/static/hall.js"));
}

TEST_F(ConsoleHttpTest, RecordedStringsAreEscapedOnTheSlip) {
  Serve();
  Record("escaped");
  httplib::Result r = Client()->Get("/games/escaped/rulings/1/slip");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_FALSE(absl::StrContains(r->body, kScript)) << r->body;
  EXPECT_TRUE(absl::StrContains(r->body, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  // The clause's verbatim Chinese text and where the ruling stands.
  EXPECT_TRUE(absl::StrContains(r->body, "cn-2002/12.4.6"));
  EXPECT_TRUE(absl::StrContains(r->body, "裁判长"));
  EXPECT_TRUE(absl::StrContains(r->body, "position 4, revision 4"));
  EXPECT_TRUE(absl::StrContains(r->body, "signed checkpoint of "));
  // The JSON carries the name as data, for the page to show as text.
  httplib::Result json = Client()->Get("/api/games/escaped");
  ASSERT_TRUE(json && json->status == 200);
  EXPECT_EQ(json->get_header_value("Content-Type"), "application/json");
}

// Issue 29.5: a game cancelled by the chief arbiter (DOMAIN.md §3.2) leaves
// the hall, finished games included; its own page still reads it.
TEST_F(ConsoleHttpTest, ACancelledGameLeavesTheHall) {
  Serve();
  Record("kept");
  Record("mistake");
  const ProcessResult r = RunCli(
      {"game", "cancel", "mistake", "--reason", "created twice", "--at", "2026-06-02T09:01:00Z"},
      "", server_->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  for (const char* path : {"/api/games", "/api/games?all=1"}) {
    httplib::Result hall = Client()->Get(path);
    ASSERT_TRUE(hall && hall->status == 200) << path;
    EXPECT_TRUE(absl::StrContains(hall->body, R"("gameId":"kept")")) << hall->body;
    EXPECT_FALSE(absl::StrContains(hall->body, "mistake")) << hall->body;
  }
  httplib::Result game = Client()->Get("/api/games/mistake");
  ASSERT_TRUE(game && game->status == 200);
  EXPECT_TRUE(absl::StrContains(game->body, R"("cancelledReason":"created twice")")) << game->body;
}

TEST_F(ConsoleHttpTest, WritesWithoutTheSessionsCsrfTokenAreRefused) {
  Serve();
  Record("csrf");
  httplib::Result page = Client()->Get("/");
  ASSERT_TRUE(page);
  const std::string set = page->get_header_value("Set-Cookie");
  const std::string cookie = set.substr(0, set.find(';'));
  const std::string csrf = Csrf(cookie);
  ASSERT_EQ(csrf.size(), 64u);

  httplib::Result none = Decide(cookie, "", "csrf", "BLACK_LOSES");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 403);
  EXPECT_TRUE(absl::StrContains(none->body, "CSRF")) << none->body;
  httplib::Result wrong = Decide(cookie, std::string(64, '0'), "csrf", "BLACK_LOSES");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 403);
  httplib::Result other = Decide("arbiter_session=forged", csrf, "csrf", "BLACK_LOSES");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 403);
  EXPECT_FALSE(absl::StrContains(History("csrf"), "arbiterDecision"));

  httplib::Result ok = Decide(cookie, csrf, "csrf", "BLACK_LOSES");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200) << ok->body;
  EXPECT_TRUE(absl::StrContains(History("csrf"), "arbiterDecision"));
}

TEST_F(ConsoleHttpTest, TokensNeedASignInAndTheRolesOfGrpc) {
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  const std::string arbiter = Token("ARBITER", "Li Wei");
  const std::string auditor = Token("AUDITOR", "Audit Office");
  Serve();
  Record("roles", chief);

  httplib::Result anonymous = Client()->Get("/");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 303);
  EXPECT_EQ(anonymous->get_header_value("Location"), "/login");
  httplib::Result api = Client()->Get("/api/games");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 401);
  httplib::Result bad = Client()->Post("/login", httplib::Params{{"token", "arb_nonsense"}});
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->get_header_value("Location"), "/login?failed=1");
  EXPECT_TRUE(bad->get_header_value("Set-Cookie").empty());

  // An ARBITER may not decide what 12.4.6 leaves to the chief arbiter; an
  // AUDITOR may not decide at all. Nothing is written.
  const std::string as_arbiter = SignIn(arbiter);
  httplib::Result refused = Decide(as_arbiter, Csrf(as_arbiter), "roles", "BLACK_LOSES");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_TRUE(absl::StrContains(refused->body, "chief arbiter")) << refused->body;
  const std::string as_auditor = SignIn(auditor);
  httplib::Result auditor_refused = Decide(as_auditor, Csrf(as_auditor), "roles", "BLACK_LOSES");
  ASSERT_TRUE(auditor_refused);
  EXPECT_EQ(auditor_refused->status, 403) << auditor_refused->body;
  EXPECT_FALSE(absl::StrContains(History("roles", chief), "arbiterDecision"));

  const std::string as_chief = SignIn(chief);
  httplib::Result decided = Decide(as_chief, Csrf(as_chief), "roles", "BLACK_LOSES");
  ASSERT_TRUE(decided);
  EXPECT_EQ(decided->status, 200) << decided->body;
  const std::string history = History("roles", chief);
  EXPECT_TRUE(absl::StrContains(history, "arbiterDecision"));
  EXPECT_TRUE(absl::StrContains(history, "Wang Ru (CHIEF_ARBITER, token ")) << history;

  // Signing out ends the session.
  httplib::Result out = Client()->Post(
      "/logout", {{"Cookie", as_chief}, {"X-CSRF-Token", Csrf(as_chief)}}, "", "text/plain");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->status, 204);
  EXPECT_TRUE(absl::StrContains(out->get_header_value("Set-Cookie"), "Max-Age=0"));
  httplib::Result after = Client()->Get("/api/session", {{"Cookie", as_chief}});
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 401);
}

// A link to a page (a ruling slip, a game, an audit from a report) followed
// without a session leads to the sign-in and, once signed in, back to that
// page; never to another site, whatever `next` says (an open redirect would
// lend the console's name to a phishing link).
TEST_F(ConsoleHttpTest, SigningInReturnsToThePageAskedFor) {
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  Serve();
  Record("back", chief);

  httplib::Result asked = Client()->Get("/games/back?x=1");
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->status, 303);
  // The server sends "/login?next=/games/back%3Fx%3D1"; cpp-httplib's client
  // decodes a Location header as it reads it.
  EXPECT_EQ(asked->get_header_value("Location"), "/login?next=/games/back?x=1");
  httplib::Result hall = Client()->Get("/");
  ASSERT_TRUE(hall);
  EXPECT_EQ(hall->get_header_value("Location"), "/login");

  httplib::Result back =
      Client()->Post("/login", httplib::Params{{"token", chief}, {"next", "/games/back?x=1"}});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->status, 303);
  EXPECT_EQ(back->get_header_value("Location"), "/games/back?x=1");
  EXPECT_FALSE(back->get_header_value("Set-Cookie").empty());

  httplib::Result failed =
      Client()->Post("/login", httplib::Params{{"token", "arb_nonsense"}, {"next", "/games/back"}});
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->get_header_value("Location"), "/login?failed=1&next=/games/back");

  for (const char* elsewhere : {"https://evil.example/", "//evil.example/x", "/\\evil.example",
                                "/\tx", "games/back", "/login?next=//evil.example"}) {
    SCOPED_TRACE(elsewhere);
    httplib::Result r =
        Client()->Post("/login", httplib::Params{{"token", chief}, {"next", elsewhere}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->get_header_value("Location"), "/");
  }
}

TEST_F(ConsoleHttpTest, AnOpenConsoleStaysOnLoopback) {
  const ProcessResult r = RunArbiter(
      {"serve", "--db", dir_.path() + "/open", "--listen", "127.0.0.1:0", "--http", "0.0.0.0:0"});
  EXPECT_EQ(r.exit, 3);
  EXPECT_TRUE(absl::StrContains(r.err, "only on loopback")) << r.err;
}

}  // namespace

// The tournament page and the hall's placements (issue 30): a game paired in
// a tournament carries its round and board to the hall and to its slip; the
// page names each criterion of its system; bad ids and rounds are refused.
TEST_F(ConsoleHttpTest, TournamentPageHallPlacementsAndTheSlipsWhereabouts) {
  Serve();
  Record("g1");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"tournament", "create", "--id", "cup", "--system", "round-robin",
                                 "--title", "Spring <Cup>", "--location", "Hangzhou", "--player",
                                 "S:<script>alert(1)</script>:6d", "--player", "Z:Zhou Rui:6d"},
        std::vector<std::string>{"tournament", "pair", "cup", "--round", "1", "--board",
                                 "S,Z,g1"}}) {
    const ProcessResult r = RunCli(args, "", server_->address());
    ASSERT_EQ(r.exit, 0) << r.err;
  }
  httplib::Result hall = Client()->Get("/api/games");
  ASSERT_TRUE(hall);
  EXPECT_TRUE(absl::StrContains(
      hall->body,
      R"("placements":{"g1":{"tournament":"cup","title":"Spring \u003cCup\u003e","round":1,"board":1}})"))
      << hall->body;

  httplib::Result page = Client()->Get("/tournaments/cup");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  // A round robin: points, A (胜者小分), B; no Swiss total score.
  EXPECT_TRUE(
      absl::StrContains(page->body, "data-column=\"tie_break_a\"><span lang=\"zh\">胜者小分"));
  EXPECT_TRUE(absl::StrContains(page->body, "data-column=\"warnings\""));
  // The legend explains each criterion in both languages, not only in English.
  EXPECT_TRUE(absl::StrContains(page->body,
                                "<dt>A</dt><dd><span lang=\"zh\">胜者小分：所胜对手的积分之和，"
                                "加上所和对手积分的一半</span> <span lang=\"en\">A: the points"))
      << page->body;
  EXPECT_TRUE(absl::StrContains(page->body, "警告：整个比赛的警告次数，少者名次列前"));
  EXPECT_FALSE(absl::StrContains(page->body, "total_score"));
  EXPECT_TRUE(absl::StrContains(page->body, "id=\"cross-table\""));
  EXPECT_TRUE(absl::StrContains(page->body, "Spring &lt;Cup&gt;"));
  EXPECT_FALSE(absl::StrContains(page->body, kScript));

  httplib::Result slip = Client()->Get("/games/g1/rulings/1/slip");
  ASSERT_TRUE(slip);
  EXPECT_TRUE(absl::StrContains(slip->body, "第1轮")) << slip->body;
  EXPECT_TRUE(absl::StrContains(slip->body, "Table 1"));
  EXPECT_TRUE(absl::StrContains(slip->body, "Hangzhou"));
  EXPECT_TRUE(absl::StrContains(slip->body, "<svg class=\"qr\""));
  EXPECT_TRUE(absl::StrContains(slip->body, "arbiter verify g1 ruling 1 position "));

  httplib::Result unknown = Client()->Get("/tournaments/nope");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  httplib::Result bad_round = Client()->Get("/tournaments/cup?round=x");
  ASSERT_TRUE(bad_round);
  EXPECT_EQ(bad_round->status, 400);
}
