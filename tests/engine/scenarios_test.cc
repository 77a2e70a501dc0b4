// Every scenario (tests/data/scenarios/public, copied from the shared
// contract, and tests/data/scenarios/project, ours) through the real binary:
// `arbiter adjudicate --ruleset R --json NAME.jsonl` must give the exit
// status, ruling history, result and state that NAME.expected.json says
// (see its README.md). Plus the CLI's refusals of malformed lines.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "arbiter/v1/rulings.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;
using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;
using testing::ProcessResult;
using testing::RunArbiter;
using testing::TestDataPath;

Struct ParseObject(const std::string& json) {
  Struct s;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &s);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  return s;
}

const Value* Field(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? nullptr : &it->second;
}

// "2380s" -> 2380.
double Seconds(const Value& v) {
  if (v.has_number_value()) return v.number_value();
  std::string text = v.string_value();
  if (!text.empty() && text.back() == 's') text.pop_back();
  double d = -1;
  EXPECT_TRUE(absl::SimpleAtod(text, &d)) << text;
  return d;
}

void CheckScenario(const fs::path& jsonl) {
  fs::path expected_path = jsonl;
  expected_path.replace_extension(".expected.json");
  const Struct expected = ParseObject(testing::ReadFile(expected_path.string()));
  const std::string ruleset = Field(expected, "ruleset")->string_value();
  const ProcessResult run =
      RunArbiter({"adjudicate", "--ruleset", ruleset, "--json", jsonl.string()});
  ASSERT_EQ(run.exit, static_cast<int>(Field(expected, "exit")->number_value())) << run.err;
  if (run.exit != 0) {
    EXPECT_TRUE(run.out.empty()) << "no result may be printed on bad input";
    EXPECT_NE(run.err.find("line "), std::string::npos) << run.err;
    // What the refusal must name (optional): each text, in its one line.
    if (const Value* error = Field(expected, "error")) {
      EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "one line: " << run.err;
      for (const Value& text : error->list_value().values()) {
        EXPECT_NE(run.err.find(text.string_value()), std::string::npos)
            << text.string_value() << " in " << run.err;
      }
    }
    return;
  }
  const Struct report = ParseObject(run.out);

  // Rulings: [clause, against, sanctions as a set], in order, no others.
  const ListValue& want = Field(expected, "rulings")->list_value();
  const Value* got_value = Field(report, "rulings");
  ASSERT_NE(got_value, nullptr);
  const ListValue& got = got_value->list_value();
  ASSERT_EQ(got.values_size(), want.values_size()) << run.out;
  const Value* pending = Field(expected, "pending");
  for (int i = 0; i < want.values_size(); ++i) {
    const ListValue& w = want.values(i).list_value();
    const Struct& g = got.values(i).struct_value();
    EXPECT_EQ(Field(g, "clause")->string_value(), w.values(0).string_value()) << i;
    EXPECT_EQ(Field(g, "against")->string_value(), w.values(1).string_value()) << i;
    std::set<std::string> ws, gs;
    for (const Value& s : w.values(2).list_value().values()) ws.insert(s.string_value());
    for (const Value& s : Field(g, "sanctions")->list_value().values()) gs.insert(s.string_value());
    EXPECT_EQ(gs, ws) << i;
    ASSERT_NE(Field(g, "pending"), nullptr) << "\"pending\" must always be printed";
    if (pending != nullptr) {
      EXPECT_EQ(Field(g, "pending")->bool_value(), pending->list_value().values(i).bool_value());
    }
  }

  // Result: null while the game goes on, else the keys given.
  const Value* want_result = Field(expected, "result");
  const Value* got_result = Field(report, "result");
  if (want_result == nullptr || want_result->has_null_value()) {
    EXPECT_EQ(got_result, nullptr) << run.out;
  } else {
    ASSERT_NE(got_result, nullptr) << run.out;
    for (const auto& [key, value] : want_result->struct_value().fields()) {
      const Value* g = Field(got_result->struct_value(), key);
      ASSERT_NE(g, nullptr) << key;
      if (value.has_number_value()) {
        EXPECT_DOUBLE_EQ(g->number_value(), value.number_value()) << key;
      } else {
        EXPECT_EQ(g->string_value(), value.string_value()) << key;
      }
    }
  }

  // State: toMove, and clock figures in seconds.
  if (const Value* want_state = Field(expected, "state")) {
    const Struct& state = Field(report, "state")->struct_value();
    for (const auto& [key, value] : want_state->struct_value().fields()) {
      if (key == "toMove") {
        EXPECT_EQ(Field(state, "toMove")->string_value(), value.string_value());
      } else if (key == "clocks") {
        const Struct& clocks = Field(state, "clocks")->struct_value();
        for (const auto& [color, figures] : value.struct_value().fields()) {
          const Struct& clock = Field(clocks, color)->struct_value();
          for (const auto& [figure, number] : figures.struct_value().fields()) {
            const Value* g = Field(clock, figure);
            ASSERT_NE(g, nullptr) << color << "." << figure;
            EXPECT_DOUBLE_EQ(Seconds(*g), number.number_value()) << color << "." << figure;
          }
        }
      } else {
        ADD_FAILURE() << "unknown state key in the expectation: " << key;
      }
    }
  }
}

// The scenarios of tests/data/scenarios/<set>: "public" (the shared
// contract's) or "project" (ours, one or more for each decided
// interpretation and each encoding of issue 14).
std::vector<fs::path> Scenarios(const std::string& set) {
  return testing::FilesIn(TestDataPath("scenarios/" + set), ".jsonl");
}

TEST(ScenariosTest, EveryPublicScenarioThroughTheBinary) {
  const std::vector<fs::path> scenarios = Scenarios("public");
  ASSERT_FALSE(scenarios.empty());
  for (const fs::path& p : scenarios) {
    SCOPED_TRACE(p.filename().string());
    CheckScenario(p);
  }
}

TEST(ScenariosTest, EveryProjectScenarioThroughTheBinary) {
  const std::vector<fs::path> scenarios = Scenarios("project");
  ASSERT_GE(scenarios.size(), 20u);
  for (const fs::path& p : scenarios) {
    SCOPED_TRACE(p.filename().string());
    CheckScenario(p);
  }
}

// A game recorded under the first versions (tests/data/pinned) re-judged
// through the binary under the version it pinned: the recorded rulings.
TEST(ScenariosTest, AGameReadjudicatesUnderItsPinnedVersion) {
  int games = 0;
  for (const fs::path& game : testing::FilesIn(TestDataPath("pinned"), ".jsonl")) {
    ++games;
    SCOPED_TRACE(game.filename().string());
    fs::path recorded_path = game;
    recorded_path.replace_extension(".recorded.json");
    const std::string recorded = testing::ReadFile(recorded_path.string());
    const std::string ruleset = Field(ParseObject(recorded), "ruleset")->string_value();
    const std::string first = ruleset == "cn-2002" ? "2002.1" : "1988.1";
    const ProcessResult run = RunArbiter(
        {"adjudicate", "--ruleset", absl::StrCat(ruleset, "@", first), "--json", game.string()});
    ASSERT_EQ(run.exit, 0) << run.err;
    // As messages, so that fields printed empty by one build and not by the
    // other (a field added since) compare equal.
    arbiter::v1::AdjudicationReport got, want;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(run.out, &got).ok()) << run.out;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(recorded, &want).ok());
    EXPECT_EQ(got.ruleset_hash(), want.ruleset_hash());
    EXPECT_EQ(got.ruleset_version(), first);
    ASSERT_EQ(got.rulings_size(), want.rulings_size()) << run.out;
    for (int i = 0; i < got.rulings_size(); ++i) {
      EXPECT_TRUE(
          google::protobuf::util::MessageDifferencer::Equals(got.rulings(i), want.rulings(i)))
          << got.rulings(i).ShortDebugString() << "\n"
          << want.rulings(i).ShortDebugString();
    }
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got.result(), want.result()))
        << got.result().ShortDebugString() << "\n"
        << want.result().ShortDebugString();
  }
  EXPECT_EQ(games, 6);
}

// Audit bundles exported at b455db4 (ledger, rulings and signed checkpoint
// of a game judged under 2002.1 and one under 1988.1) still verify: the
// games are re-adjudicated under the versions they pinned, not the latest.
TEST(ScenariosTest, BundlesRecordedUnderTheFirstVersionsStillVerify) {
  for (const char* name : {"cn-2002-incidents.bundle", "cn-1988-incidents.bundle"}) {
    SCOPED_TRACE(name);
    const ProcessResult run =
        RunArbiter({"verify", "--bundle", TestDataPath(absl::StrCat("pinned/", name))});
    EXPECT_EQ(run.exit, 0) << run.out << run.err;
    EXPECT_NE(
        run.out.find("re-adjudicated 1 game(s) under their pinned rules: every ruling matches"),
        std::string::npos)
        << run.out << run.err;
  }
}

// gameCreated names its version: the game is judged under it without
// --ruleset (the binary reads rulesetVersion).
TEST(ScenariosTest, GameCreatedNamesItsRulesetVersion) {
  const testing::TempDir dir("scenarios-version");
  const std::string path = dir.File("versioned.jsonl");
  testing::WriteFile(
      path,
      absl::StrCat(
          R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "v", "ruleset": "cn-2002", "rulesetVersion": "2002.1", "boardSize": 19}})",
          "\n", R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})", "\n",
          R"({"at": "2026-05-01T09:00:10Z", "wrongColors": {}})", "\n"));
  const ProcessResult old = RunArbiter({"adjudicate", "--json", path});
  ASSERT_EQ(old.exit, 0) << old.err;
  EXPECT_EQ(Field(ParseObject(old.out), "rulesetVersion")->string_value(), "2002.1");
  EXPECT_EQ(Field(ParseObject(old.out), "rulings")->list_value().values_size(), 1);  // 17.1
  const ProcessResult latest = RunArbiter({"adjudicate", "--ruleset", "cn-2002", "--json", path});
  ASSERT_EQ(latest.exit, 0) << latest.err;
  EXPECT_EQ(Field(ParseObject(latest.out), "rulesetVersion")->string_value(), "2002.6");
  EXPECT_EQ(Field(ParseObject(latest.out), "rulings")->list_value().values_size(), 0);
  testing::WriteFile(
      path,
      absl::StrCat(
          R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "v", "ruleset": "cn-2002", "rulesetVersion": "2002.7", "boardSize": 19}})",
          "\n"));
  const ProcessResult unknown = RunArbiter({"adjudicate", "--json", path});
  EXPECT_EQ(unknown.exit, 2);
  EXPECT_NE(unknown.err.find("2002.7"), std::string::npos) << unknown.err;
}

TEST(ScenariosTest, ReadableReportHasTheResultLineInBothLanguages) {
  const ProcessResult run =
      RunArbiter({"adjudicate", TestDataPath("scenarios/public/count-185.jsonl")});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_NE(run.out.find("黑胜3/4子 / Black wins by ¾ stone"), std::string::npos) << run.out;
  const ProcessResult phone =
      RunArbiter({"adjudicate", TestDataPath("scenarios/public/phone-twice.jsonl")});
  EXPECT_NE(phone.out.find("cn-2002/23.7"), std::string::npos) << phone.out;
  EXPECT_NE(phone.out.find("WARNING PENALTY_STONE"), std::string::npos) << phone.out;
}

TEST(ScenariosTest, RejudgedUnderCn1988) {
  const ProcessResult run = RunArbiter({"adjudicate", "--ruleset", "cn-1988", "--json",
                                        TestDataPath("scenarios/public/double-move.jsonl")});
  ASSERT_EQ(run.exit, 0) << run.err;
  const Struct report = ParseObject(run.out);
  EXPECT_EQ(Field(report, "ruleset")->string_value(), "cn-1988");
  const Struct& ruling = Field(report, "rulings")->list_value().values(0).struct_value();
  EXPECT_EQ(Field(ruling, "clause")->string_value(), "cn-1988/17.1");
  EXPECT_EQ(Field(Field(report, "result")->struct_value(), "sgf")->string_value(), "W+F");
}

// Malformed lines: exit 2, "line N: why" on stderr, nothing on stdout.
TEST(ScenariosTest, BadLinesAreRefusedWithTheirLineNumber) {
  const testing::TempDir dir("scenarios-test");
  const std::string created =
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "x", "ruleset": "cn-2002", "boardSize": 19}})";
  const std::string started = R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})";
  struct Bad {
    std::string line;
    std::string says;
  };
  for (
      const Bad& bad : std::vector<Bad>{
          {R"({"at": "2026-05-01T09:00:10Z", "teleport": {"color": "BLACK"}})", "teleport"},
          {R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16", "weight": 3}})",
           "weight"},
          {R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"})", ""},
          {R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Z30"}})", "Z30"},
          {R"({"at": "2026-05-01T08:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})",
           "earlier"},
      }) {
    SCOPED_TRACE(bad.line);
    const std::string path = dir.File("bad.jsonl");
    testing::WriteFile(path, absl::StrCat(created, "\n", started, "\n", bad.line, "\n"));
    const ProcessResult run = RunArbiter({"adjudicate", "--json", path});
    EXPECT_EQ(run.exit, 2);
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_NE(run.err.find("line 3: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(bad.says), std::string::npos) << run.err;
  }
  const std::string path = dir.File("first.jsonl");
  testing::WriteFile(path, absl::StrCat(started, "\n"));
  const ProcessResult run = RunArbiter({"adjudicate", path});
  EXPECT_EQ(run.exit, 2);
  EXPECT_NE(run.err.find("line 1: "), std::string::npos) << run.err;
}

}  // namespace
}  // namespace arbiter
