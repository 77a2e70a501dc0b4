// The floor arbiter's HTTP side (adjudicator/service/console/floor.h)
// through a real `arbiter serve --http`: the pages, the dry run that stores
// nothing, the record that the ledger holds once however often the page
// retries it, and the refusals, each leaving the ledger as it was.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
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

constexpr char kGame[] =
    R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": "t3", "table": 3, "black": {"name": "Ke Jie", "rank": "9p"}, "white": {"name": "Gu Li", "rank": "9p"}, "scheduledStart": "2026-06-02T09:00:00Z"}})"
    "\n"
    R"({"at": "2026-06-02T09:00:05Z", "playerArrived": {"color": "BLACK"}})"
    "\n";

constexpr char kPhoneRang[] =
    R"({"events": [{"at": "2026-06-02T09:10:00Z", "idempotencyKey": "floor-1", "phoneRang": {"color": "BLACK"}}]})";

class FloorHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    referee_ = Token("ARBITER", "Li Wei");
    auditor_ = Token("AUDITOR", "Zhao Min");
    chief_ = Token("CHIEF_ARBITER", "Wang Ru");
    server_ = ServerProcess::Start(dir_.path() + "/data", {"--http", "127.0.0.1:0"});
    ASSERT_NE(server_, nullptr);
    const ProcessResult r =
        RunCli({"record", "-"}, kGame, server_->address(), {{"ARBITER_TOKEN", chief_}});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  std::string Token(const std::string& role, const std::string& name) {
    std::string token = ::arbiter::testing::CreateToken(dir_.path() + "/data", role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  std::unique_ptr<httplib::Client> Client() { return ::arbiter::testing::ConsoleClient(*server_); }

  // A signed-in session: its cookie and CSRF token, as headers for a write.
  httplib::Headers Session(const std::string& token) {
    httplib::Result in = Client()->Post("/login", httplib::Params{{"token", token}});
    EXPECT_TRUE(in && in->status == 303);
    if (!in) return {};
    const std::string set = in->get_header_value("Set-Cookie");
    const std::string cookie = set.substr(0, set.find(';'));
    httplib::Result s = Client()->Get("/api/session", {{"Cookie", cookie}});
    EXPECT_TRUE(s && s->status == 200);
    if (!s) return {};
    const size_t at = s->body.find("\"csrf\":\"");
    return {{"Cookie", cookie}, {"X-CSRF-Token", s->body.substr(at + 8, 64)}};
  }

  httplib::Result Post(const httplib::Headers& h, const std::string& path,
                       const std::string& body) {
    return Client()->Post(path, h, body, "application/json");
  }

  // The game's events as gRPC ListEvents answers them (`arbiter history`).
  std::string History() {
    const ProcessResult r =
        RunCli({"history", "t3", "--json"}, "", server_->address(), {{"ARBITER_TOKEN", chief_}});
    EXPECT_EQ(r.exit, 0) << r.err;
    return r.out;
  }

  static int Count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  TempDir dir_{"floor-http-test"};
  std::unique_ptr<ServerProcess> server_;
  std::string referee_, auditor_, chief_;
};

TEST_F(FloorHttpTest, ServesThePhonePages) {
  const httplib::Headers h = Session(referee_);
  for (const char* path : {"/tables", "/tables/3"}) {
    httplib::Result r = Client()->Get(path, {{"Cookie", h.find("Cookie")->second}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_TRUE(absl::StrContains(r->body, "/static/tables.js")) << path;
  }
  httplib::Result anonymous = Client()->Get("/tables");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 303);  // to /login: the server has tokens
  EXPECT_EQ(Client()->Get("/tables/x", {{"Cookie", h.find("Cookie")->second}})->status, 404);
}

// A refusal the phone words in its reader's language comes with its reason
// and fields beside the English message, from the dry run and the append
// alike; nothing is recorded.
TEST_F(FloorHttpTest, ARefusalCarriesItsReasonForThePhonesWords) {
  const httplib::Headers h = Session(referee_);
  httplib::Result started =
      Post(h, "/api/games/t3/events",
           R"({"events": [{"at": "2026-06-02T09:01:00Z", "gameStarted": {"absent": ["WHITE"]}}]})");
  ASSERT_TRUE(started);
  ASSERT_EQ(started->status, 200) << started->body;
  const std::string before = History();
  constexpr char kBlackArrives[] =
      R"({"events": [{"at": "2026-06-02T09:05:00Z", "playerArrived": {"color": "BLACK"}}]})";
  for (const char* path : {"/api/games/t3/events/preview", "/api/games/t3/events"}) {
    httplib::Result r = Post(h, path, kBlackArrives);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << path << ": " << r->body;
    google::protobuf::Struct body;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &body).ok()) << r->body;
    const auto& error = body.fields().at("error").struct_value().fields();
    EXPECT_TRUE(absl::StrContains(error.at("message").string_value(), "nobody awaits Black"));
    ASSERT_EQ(error.count("refusal"), 1u) << r->body;
    const auto& refusal = error.at("refusal").struct_value().fields();
    EXPECT_EQ(refusal.at("reason").string_value(), "ARRIVAL_NOT_AWAITED") << r->body;
    EXPECT_EQ(refusal.at("color").string_value(), "BLACK") << r->body;
  }
  EXPECT_EQ(History(), before);
  httplib::Result white =
      Post(h, "/api/games/t3/events",
           R"({"events": [{"at": "2026-06-02T09:05:00Z", "playerArrived": {"color": "WHITE"}}]})");
  ASSERT_TRUE(white);
  EXPECT_EQ(white->status, 200) << white->body;
}

TEST_F(FloorHttpTest, TheDryRunRulesAndStoresNothing) {
  const httplib::Headers h = Session(referee_);
  const std::string before = History();
  httplib::Result preview = Post(h, "/api/games/t3/events/preview", kPhoneRang);
  ASSERT_TRUE(preview);
  ASSERT_EQ(preview->status, 200) << preview->body;
  // 23.7: a phone rings, a warning, which is a penalty stone (24.1).
  EXPECT_TRUE(absl::StrContains(preview->body, "cn-2002/23.7")) << preview->body;
  EXPECT_TRUE(absl::StrContains(preview->body, "PENALTY_STONE")) << preview->body;
  EXPECT_EQ(History(), before);

  httplib::Result recorded = Post(h, "/api/games/t3/events", kPhoneRang);
  ASSERT_TRUE(recorded);
  ASSERT_EQ(recorded->status, 200) << recorded->body;
  EXPECT_TRUE(absl::StrContains(recorded->body, "cn-2002/23.7"));
  const std::string after = History();
  EXPECT_EQ(Count(after, "\"phoneRang\""), 1) << after;
  EXPECT_TRUE(absl::StrContains(after, "Li Wei (ARBITER")) << after;

  // The page's retry after a lost answer: the first record, not a second.
  httplib::Result again = Post(h, "/api/games/t3/events", kPhoneRang);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200) << again->body;
  EXPECT_EQ(History(), after);
}

TEST_F(FloorHttpTest, RefusalsLeaveTheLedgerAsItWas) {
  const httplib::Headers h = Session(referee_);
  const std::string before = History();
  struct Case {
    httplib::Headers headers;
    std::string path, body;
    int status;
    std::string says;
  };
  httplib::Headers no_csrf{{"Cookie", h.find("Cookie")->second}};
  const std::vector<Case> cases = {
      {no_csrf, "/api/games/t3/events", kPhoneRang, 403, "CSRF"},
      {h, "/api/games/t3/events", "{\"events\": [", 400, ""},
      {h, "/api/games/t3/events", R"({"game": "games/t4", "events": []})", 400, "t4"},
      {h, "/api/games/t3/events", R"({"events": []})", 400, "empty"},
      {h, "/api/games/t3/events",
       // The dead stones need the board, which a game recorded without its
       // moves does not have (a takeback there is ruled on the arbiter's word).
       R"({"events": [{"at": "2026-06-02T09:10:00Z", "deadStones": {"points": ["Q16"]}}]})", 400,
       "deadStones"},
      {h, "/api/games/t3/events/preview",
       R"({"events": [{"at": "2026-06-02T09:10:00Z", "stoneDropped": {"color": "BLACK", "point": "I5"}}]})",
       400, "I5"},
      {Session(auditor_), "/api/games/t3/events", kPhoneRang, 403, ""},
      {h, "/api/games/nothing-here/events", kPhoneRang, 404, ""},
  };
  for (const Case& c : cases) {
    httplib::Result r = Post(c.headers, c.path, c.body);
    ASSERT_TRUE(r) << c.body;
    EXPECT_EQ(r->status, c.status) << c.body << " -> " << r->body;
    EXPECT_TRUE(absl::StrContains(r->body, "\"message\"")) << r->body;
    EXPECT_TRUE(absl::StrContains(r->body, c.says)) << c.body << " -> " << r->body;
  }
  EXPECT_EQ(History(), before);
}

}  // namespace
