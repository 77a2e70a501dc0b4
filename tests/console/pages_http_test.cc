// What a person reads on the console's pages, fetched from a real `arbiter
// serve --http` on 127.0.0.1 (issue 43): the ruling slip handed to a player
// names the decision and who took it in words, in both languages, and keeps
// the recorded actor's code names and token out of its text (the token's
// short id only in the audit line at its foot, the console README's words); the hall's
// `?all=1`, the link scripts/run prints, opens its finished games.
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/console_client.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::ProcessResult;
using ::arbiter::testing::RunCli;
using ::arbiter::testing::ServerProcess;
using ::arbiter::testing::TempDir;

// A game the chief arbiter creates and starts.
constexpr char kGame[] =
    R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": "talk", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "Chen Jie", "rank": "6d"}, "white": {"name": "Zhao Min", "rank": "6d"}, "venue": "SAME_SITE", "scheduledStart": "2026-06-02T09:00:00Z"}})"
    "\n"
    R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})"
    "\n"
    R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"
    "\n";

// White talks during the game: 23.5 leaves a warning or a loss to the
// arbiter, so ruling 1 waits for a decision.
constexpr char kTalk[] =
    R"({"at": "2026-06-02T09:05:00Z", "misconduct": {"color": "WHITE", "kind": "TALK"}})"
    "\n";

// A finished game: Black resigns.
constexpr char kResigned[] =
    R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": "done", "ruleset": "cn-2002", "boardSize": 19, "black": {"name": "Ke Jie", "rank": "9p"}, "white": {"name": "Gu Li", "rank": "9p"}, "venue": "SAME_SITE", "scheduledStart": "2026-06-02T09:00:00Z"}})"
    "\n"
    R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})"
    "\n"
    R"({"at": "2026-06-02T09:00:10Z", "resign": {"color": "BLACK"}})"
    "\n";

// The text a reader sees: tags dropped (a QR code's long path with them),
// spaces as they are.
std::string TextOf(const std::string& html) {
  std::string text;
  bool in_tag = false;
  for (const char c : html) {
    if (c == '<' || c == '>') {
      in_tag = c == '<';
    } else if (!in_tag) {
      text.push_back(c);
    }
  }
  return text;
}

// A slip split into its text and its foot (the verification line, its QR
// code and the audit line: <div class="verify">...</div>).
struct Slip {
  std::string text;
  std::string foot;
};

Slip Split(const std::string& page) {
  const size_t foot = page.find("<div class=\"verify\">");
  const size_t end = page.find("</div>", foot);
  if (foot == std::string::npos || end == std::string::npos) return {TextOf(page), ""};
  return {TextOf(page.substr(0, foot) + page.substr(end)), TextOf(page.substr(foot, end - foot))};
}

// The enum code names in a text: words of capitals and underscores
// (WARNING, CHIEF_ARBITER, PENALTY_STONE), the time zone aside.
std::vector<std::string> CodeNames(const std::string& text) {
  std::vector<std::string> found;
  // Not followed by a small letter: the page's cells run together once
  // their tags are gone ("... UTCDecided: ...").
  const std::regex word("[A-Z][A-Z_]{2,}(?![a-z])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator();
       ++it) {
    if (it->str() != "UTC") found.push_back(it->str());
  }
  return found;
}

class PagesHttpTest : public ::testing::Test {
 protected:
  void Serve(std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), {"--http", "127.0.0.1:0"});
    server_ = ServerProcess::Start(dir_.path() + "/data", flags);
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
  }

  std::unique_ptr<httplib::Client> Client() { return ::arbiter::testing::ConsoleClient(*server_); }

  std::string Token(const std::string& role, const std::string& name) {
    std::string token = ::arbiter::testing::CreateToken(dir_.path() + "/data", role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  // Records `lines` (into `game` when they do not create it).
  void Record(const std::string& lines, const std::string& token = "",
              const std::string& game = "") {
    std::vector<std::pair<std::string, std::string>> env;
    if (!token.empty()) env.push_back({"ARBITER_TOKEN", token});
    std::vector<std::string> args = {"record", "-"};
    if (!game.empty()) args.insert(args.end(), {"--game", game});
    const ProcessResult r = RunCli(args, lines, server_->address(), env);
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  // The short id of the token `holder` recorded under, from the stamped
  // actor the history carries ("Li Wei (CHIEF_ARBITER, token 1a2b3c4d)").
  std::string TokenId(const std::string& game, const std::string& holder,
                      const std::string& token) {
    const ProcessResult r =
        RunCli({"history", game, "--json"}, "", server_->address(), {{"ARBITER_TOKEN", token}});
    EXPECT_EQ(r.exit, 0) << r.err;
    std::smatch m;
    const std::regex actor(holder + R"( \([A-Z_]+, token ([0-9a-f]+)\))");
    EXPECT_TRUE(std::regex_search(r.out, m, actor)) << r.out;
    return m.empty() ? "" : m[1].str();
  }

  // Signs in with `token`: the session cookie ("arbiter_session=...").
  std::string SignIn(const std::string& token) {
    std::string cookie = ::arbiter::testing::SignIn(*server_, token);
    EXPECT_FALSE(cookie.empty()) << "no session for the token";
    return cookie;
  }

  // Decides ruling 1 of `game` in the session `cookie`.
  void Decide(const std::string& cookie, const std::string& game, const std::string& choice) {
    httplib::Result session = Client()->Get("/api/session", {{"Cookie", cookie}});
    ASSERT_TRUE(session && session->status == 200);
    const size_t at = session->body.find("\"csrf\":\"");
    ASSERT_NE(at, std::string::npos) << session->body;
    httplib::Result decided =
        Client()->Post(absl::StrCat("/api/games/", game, "/rulings/1/decide"),
                       {{"Cookie", cookie}, {"X-CSRF-Token", session->body.substr(at + 8, 64)}},
                       absl::StrCat(R"({"choice": ")", choice, R"("})"), "application/json");
    ASSERT_TRUE(decided);
    ASSERT_EQ(decided->status, 200) << decided->body;
  }

  Slip GetSlip(const std::string& path, const std::string& cookie) {
    httplib::Result r = Client()->Get(path, {{"Cookie", cookie}});
    EXPECT_TRUE(r);
    if (!r) return {};
    EXPECT_EQ(r->status, 200) << r->body;
    return Split(r->body);
  }

  TempDir dir_{"console-pages-test"};
  std::unique_ptr<ServerProcess> server_;
};

// Issue 43.4: the floor arbiter Zhang San records White's talking; the chief
// arbiter Li Wei decides a warning. Both slips, the pending ruling's and the
// decision's, say the decision as the rules' option names it (警告一次) and
// who took it by role and name, in both languages; the role code names and
// the tokens appear only in the foot's audit line.
TEST_F(PagesHttpTest, AHandedSlipSaysTheDecisionAndWhoTookItInWords) {
  const std::string chief = Token("CHIEF_ARBITER", "Li Wei");
  const std::string floor = Token("ARBITER", "Zhang San");
  Serve();
  Record(kGame, chief);
  Record(kTalk, floor, "talk");
  const std::string session = SignIn(chief);
  Decide(session, "talk", "WARNING");
  const std::string chief_id = TokenId("talk", "Li Wei", chief);
  const std::string floor_id = TokenId("talk", "Zhang San", chief);
  ASSERT_FALSE(chief_id.empty());
  ASSERT_FALSE(floor_id.empty());

  // The ruling an arbiter gave, and how it was decided.
  const Slip pending = GetSlip("/games/talk/rulings/1/slip", session);
  EXPECT_TRUE(absl::StrContains(pending.text, "已裁定：警告一次；裁判长 Li Wei 裁定"))
      << pending.text;
  EXPECT_TRUE(absl::StrContains(
      pending.text,
      "Decided: a warning (and its penalty stone, 24.1), by the chief arbiter Li Wei"))
      << pending.text;
  EXPECT_TRUE(absl::StrContains(pending.text, "裁判员 Arbiter Zhang San")) << pending.text;
  EXPECT_TRUE(absl::StrContains(pending.foot, absl::StrCat("recorded under token ", floor_id)))
      << pending.foot;
  EXPECT_TRUE(absl::StrContains(pending.foot, absl::StrCat("decided under token ", chief_id)))
      << pending.foot;

  // The decision itself, the slip a player is handed.
  const Slip decision = GetSlip("/games/talk/rulings/2/slip", session);
  EXPECT_TRUE(absl::StrContains(decision.text, "对第1号裁定的裁决：警告一次；裁判长 Li Wei 裁定"))
      << decision.text;
  EXPECT_TRUE(absl::StrContains(decision.text,
                                "The decision on ruling #1: a warning (and its penalty stone, "
                                "24.1), by the chief arbiter Li Wei"))
      << decision.text;
  EXPECT_TRUE(absl::StrContains(decision.text, "裁判长 Chief arbiter Li Wei")) << decision.text;
  EXPECT_TRUE(absl::StrContains(decision.text, "警告一次，罚一子")) << decision.text;
  EXPECT_TRUE(absl::StrContains(decision.foot, absl::StrCat("recorded under token ", chief_id)))
      << decision.foot;

  // Without --time-zone the slip keeps the ledger's UTC, and says so; the
  // session tells the floor's page no zone was given (it keeps the phone's).
  EXPECT_TRUE(absl::StrContains(pending.text, "2026-06-02 09:05:00 UTC")) << pending.text;
  httplib::Result me = Client()->Get("/api/session", {{"Cookie", session}});
  ASSERT_TRUE(me && me->status == 200);
  EXPECT_TRUE(absl::StrContains(me->body, R"("timeZone":"UTC","timeZoneGiven":false)")) << me->body;

  for (const Slip* slip : {&pending, &decision}) {
    EXPECT_EQ(CodeNames(slip->text), std::vector<std::string>{}) << slip->text;
    EXPECT_FALSE(absl::StrContains(slip->text, "token")) << slip->text;
    EXPECT_FALSE(absl::StrContains(slip->text, chief_id)) << slip->text;
    EXPECT_FALSE(absl::StrContains(slip->text, floor_id)) << slip->text;
  }
}

// `serve --time-zone Asia/Shanghai`: a slip handed to a player in a Beijing
// hall says the hall's time with its offset (White talked at 09:05 UTC,
// 17:05 there), the session tells the pages' scripts the zone, and the
// ledger keeps UTC (the history's times are unchanged).
TEST_F(PagesHttpTest, ASlipSaysTheHallsTimeWithItsOffset) {
  const std::string chief = Token("CHIEF_ARBITER", "Li Wei");
  Serve({"--time-zone", "Asia/Shanghai"});
  Record(kGame, chief);
  Record(kTalk, chief, "talk");
  const std::string session = SignIn(chief);
  const Slip slip = GetSlip("/games/talk/rulings/1/slip", session);
  EXPECT_TRUE(absl::StrContains(slip.text, "2026-06-02 17:05:00 UTC+8")) << slip.text;
  EXPECT_FALSE(absl::StrContains(slip.text, "09:05:00")) << slip.text;
  EXPECT_TRUE(absl::StrContains(slip.foot, "UTC+8")) << slip.foot;  // the checkpoint's time
  httplib::Result me = Client()->Get("/api/session", {{"Cookie", session}});
  ASSERT_TRUE(me && me->status == 200);
  EXPECT_TRUE(absl::StrContains(me->body, R"("timeZone":"Asia/Shanghai","timeZoneGiven":true)"))
      << me->body;
  const ProcessResult history =
      RunCli({"history", "talk", "--json"}, "", server_->address(), {{"ARBITER_TOKEN", chief}});
  ASSERT_EQ(history.exit, 0) << history.err;
  EXPECT_TRUE(absl::StrContains(history.out, "2026-06-02T09:05:00Z")) << history.out;
}

TEST_F(PagesHttpTest, AnUnknownTimeZoneIsRefusedAtTheStart) {
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--http", "127.0.0.1:0", "--time-zone", "Asia/Beijing"},
           {"--time-zone", "Asia/Shanghai"}}) {
    std::vector<std::string> args = {"serve", "--db", dir_.path() + "/bad", "--listen",
                                     "127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult r = ::arbiter::testing::RunArbiter(args);
    EXPECT_EQ(r.exit, 2) << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, "--time-zone")) << r.err;
  }
  const ProcessResult unknown = ::arbiter::testing::RunArbiter(
      {"serve", "--db", dir_.path() + "/bad", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
       "--time-zone", "Asia/Beijing"});
  EXPECT_TRUE(absl::StrContains(unknown.err, "unknown time zone 'Asia/Beijing'")) << unknown.err;
}

// Issue 43.7: the hall folds the finished games away; `/?all=1` serves it
// with that section open, and the games' list it reads holds the finished
// game either way.
TEST_F(PagesHttpTest, TheHallsAllLinkOpensItsFinishedGames) {
  Serve();
  Record(kResigned);
  const auto finished_tag = [&](const std::string& path) {
    httplib::Result r = Client()->Get(path);
    EXPECT_TRUE(r && r->status == 200) << path;
    if (!r) return std::string();
    const size_t at = r->body.find("<details id=\"finished\"");
    EXPECT_NE(at, std::string::npos) << r->body;
    return at == std::string::npos ? std::string() : r->body.substr(at, r->body.find('>', at) - at);
  };
  EXPECT_TRUE(absl::StrContains(finished_tag("/?all=1"), " open")) << finished_tag("/?all=1");
  EXPECT_FALSE(absl::StrContains(finished_tag("/"), " open")) << finished_tag("/");
  EXPECT_FALSE(absl::StrContains(finished_tag("/?all=0"), " open"));
  EXPECT_FALSE(absl::StrContains(finished_tag("/?round=1"), " open"));
  httplib::Result games = Client()->Get("/api/games?all=1");
  ASSERT_TRUE(games && games->status == 200);
  EXPECT_TRUE(absl::StrContains(games->body, R"("gameId":"done")")) << games->body;
}

// Probe finding 3: a browser's navigation that fails is answered with a
// small page in the reader's language (a title, the lang attribute, the
// reason in words, a link back), with the same status; an API client, or a
// JSON one, keeps the JSON error. A page has no inline script (the CSP).
TEST_F(PagesHttpTest, ABrowserIsShownAnErrorPageAndAnApiClientKeepsTheJson) {
  const std::string chief = Token("CHIEF_ARBITER", "Li Wei");
  const std::string arbiter = Token("ARBITER", "Zhang San");
  Serve();
  Record(kGame, chief);
  const std::string session = SignIn(chief);
  const std::string arbiters = SignIn(arbiter);  // whom /webhooks refuses
  const auto page = [&](const std::string& path, const std::string& languages) {
    httplib::Result r = Client()->Get(
        path, {{"Cookie", path == "/webhooks" ? arbiters : session},
               {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
               {"Accept-Language", languages}});
    EXPECT_TRUE(r) << path;
    return r ? *r : httplib::Response();
  };
  struct Case {
    std::string path;
    int status;
    std::string zh;
    std::string en;
  };
  const std::vector<Case> cases = {
      {"/tournaments/nope", 404, "没有比赛「nope」", "No tournament 'nope'"},
      {"/games/nope", 404, "没有对局「nope」", "No game 'nope'"},
      {"/games/nope/audit", 404, "没有对局「nope」", "No game 'nope'"},
      {"/games/talk/rulings/99/slip", 404, "对局「talk」没有第99号裁定",
       "Game 'talk' has no ruling 99"},
      {"/games/talk/rulings/abc/slip", 404, "对局「talk」没有第abc号裁定",
       "Game 'talk' has no ruling abc"},
      {"/nothing", 404, "没有这个页面", "There is no such page"},
      {"/webhooks", 403, "你的角色不能查看推送", "Your role cannot see the webhooks"},
  };
  for (const Case& c : cases) {
    const httplib::Response zh = page(c.path, "zh-CN,zh;q=0.9,en;q=0.8");
    EXPECT_EQ(zh.status, c.status) << c.path;
    EXPECT_TRUE(absl::StartsWith(zh.get_header_value("Content-Type"), "text/html")) << c.path;
    EXPECT_TRUE(absl::StrContains(zh.body, "<html lang=\"zh-Hans\"")) << zh.body;
    EXPECT_TRUE(std::regex_search(zh.body, std::regex("<title>[^<]+</title>"))) << zh.body;
    EXPECT_TRUE(absl::StrContains(zh.body, c.zh)) << zh.body;
    EXPECT_TRUE(absl::StrContains(zh.body, "<a class=\"back\" href=\"/\">")) << zh.body;
    EXPECT_FALSE(absl::StrContains(zh.body, "NOT_FOUND")) << zh.body;
    EXPECT_FALSE(absl::StrContains(zh.body, "ListWebhooks")) << zh.body;
    EXPECT_FALSE(std::regex_search(zh.body, std::regex("<script(?![^>]*\\bsrc=)"))) << zh.body;
    const httplib::Response en = page(c.path, "en-GB,en;q=0.9");
    EXPECT_EQ(en.status, c.status) << c.path;
    EXPECT_TRUE(absl::StrContains(en.body, "<html lang=\"en\"")) << en.body;
    // Quotes are escaped in the page ("'" as &apos;).
    EXPECT_TRUE(absl::StrContains(en.body, absl::StrReplaceAll(c.en, {{"'", "&apos;"}})))
        << en.body;
  }
  EXPECT_TRUE(absl::StrContains(page("/nothing", "zh").body, "<title>找不到</title>"));
  EXPECT_TRUE(absl::StrContains(page("/nothing", "en").body, "<title>Not found</title>"));

  // An id that is markup stays text.
  const httplib::Response markup = page("/tournaments/%3Cb%3Ex", "en");
  EXPECT_GE(markup.status, 400);
  EXPECT_FALSE(absl::StrContains(markup.body, "<b>x")) << markup.body;

  // The API, and a client that asks for JSON, keep the JSON error.
  httplib::Result api =
      Client()->Get("/api/games/nope", {{"Cookie", session}, {"Accept", "text/html,*/*"}});
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 404);
  EXPECT_TRUE(absl::StrContains(api->body, R"("code":"NOT_FOUND")")) << api->body;
  httplib::Result json = Client()->Get("/tournaments/nope", {{"Cookie", session}});
  ASSERT_TRUE(json);
  EXPECT_EQ(json->status, 404);
  EXPECT_TRUE(absl::StrContains(json->body, R"("code":"NOT_FOUND")")) << json->body;
}

// The public broadcast's errors: its language (`?lang=`), a link to its index.
TEST_F(PagesHttpTest, TheBroadcastsErrorPageLinksToItsIndex) {
  server_ = ServerProcess::Start(dir_.path() + "/data", {"--http", "127.0.0.1:0", "--broadcast"});
  ASSERT_NE(server_, nullptr);
  const auto page = [&](const std::string& path) {
    httplib::Result r = Client()->Get(path, {{"Accept", "text/html"}});
    EXPECT_TRUE(r) << path;
    return r ? *r : httplib::Response();
  };
  const httplib::Response zh = page("/broadcast/nope/9");
  EXPECT_EQ(zh.status, 404);
  EXPECT_TRUE(absl::StrContains(zh.body, "<html lang=\"zh-Hans\">")) << zh.body;
  EXPECT_TRUE(absl::StrContains(zh.body, "<title>找不到</title>")) << zh.body;
  EXPECT_TRUE(absl::StrContains(zh.body, "直播中没有这一轮或这一台")) << zh.body;
  EXPECT_TRUE(absl::StrContains(zh.body, "href=\"/broadcast\"")) << zh.body;
  const httplib::Response en = page("/broadcast/nope/9/3?lang=en");
  EXPECT_EQ(en.status, 404);
  EXPECT_TRUE(absl::StrContains(en.body, "<html lang=\"en\">")) << en.body;
  EXPECT_TRUE(absl::StrContains(en.body, "The broadcast has no such round or board")) << en.body;
  EXPECT_TRUE(absl::StrContains(en.body, "href=\"/broadcast?lang=en\"")) << en.body;
}

}  // namespace
