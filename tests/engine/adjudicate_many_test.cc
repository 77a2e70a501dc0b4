// Many games in one process, through the binary: `arbiter adjudicate FILE...`
// gives each game the report a call of its own gives; a stream of several
// games (`arbiter import-sgf *.sgf | arbiter adjudicate -`) is split at each
// gameCreated; a bad file or game among good ones is named with its line,
// the others are still reported, and the exit status is 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Files(const std::string& dir, const std::string& extension) {
  std::vector<std::string> out;
  for (const fs::path& p : FilesIn(TestDataPath(dir), extension)) out.push_back(p.string());
  return out;
}

std::vector<std::string> Scenarios() { return Files("scenarios/public", ".jsonl"); }
std::vector<std::string> SgfRecords() { return Files("sgf", ".sgf"); }

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

google::protobuf::Struct Json(const std::string& line) {
  google::protobuf::Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(line, &s).ok()) << line;
  return s;
}

std::string GameId(const std::string& report_line) {
  return Json(report_line).fields().at("gameId").string_value();
}

// `arbiter ARGS... FILES...`.
ProcessResult Arbiter(std::vector<std::string> args, const std::vector<std::string>& files,
                      const std::string& input = "") {
  args.insert(args.end(), files.begin(), files.end());
  return RunCli(args, input);
}

// A private temporary directory, removed at the end of the test.
class AdjudicateManyTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& content) {
    const std::string path = dir_.File(name);
    WriteFile(path, content);
    return path;
  }
  TempDir dir_{"arbiter-adjudicate-many"};
};

TEST_F(AdjudicateManyTest, SeveralFilesGiveEachGameTheReportOfItsOwnCall) {
  const std::vector<std::string> files = Scenarios();
  ASSERT_GE(files.size(), 10u);
  for (const bool json : {true, false}) {
    SCOPED_TRACE(json ? "--json" : "readable");
    const std::vector<std::string> flags = json ? std::vector<std::string>{"adjudicate", "--json"}
                                                : std::vector<std::string>{"adjudicate"};
    std::string expected;
    for (const std::string& f : files) {
      const ProcessResult one = Arbiter(flags, {f});
      ASSERT_EQ(one.exit, 0) << f << ": " << one.err;
      // One JSON object per line; readable reports apart by a blank line.
      if (json) {
        EXPECT_EQ(Lines(one.out).size(), 1u) << one.out;
      }
      absl::StrAppend(&expected, !json && !expected.empty() ? "\n" : "", one.out);
    }
    const ProcessResult all = Arbiter(flags, files);
    EXPECT_EQ(all.exit, 0) << all.err;
    EXPECT_EQ(all.out, expected);
  }
}

TEST_F(AdjudicateManyTest, ABadFileAmongGoodOnesIsNamedWithItsLineAndTheOthersAreReported) {
  const std::vector<std::string> good = Scenarios();
  const std::string created =
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "bad", "boardSize": 19}})";
  const std::string started = R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})";
  const std::string offboard =
      R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Z30"}})";
  const std::string bad = Write("bad.jsonl", created + "\n" + started + "\n\n" + offboard + "\n");
  const std::string missing = dir_.File("missing.jsonl");

  const ProcessResult r = Arbiter({"adjudicate", "--json"}, {good[0], bad, missing, good[1]});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("arbiter adjudicate: " + bad + ": line 4: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Z30"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  const std::vector<std::string> reports = Lines(r.out);
  ASSERT_EQ(reports.size(), 2u) << r.out;
  EXPECT_EQ(reports[0] + "\n", Arbiter({"adjudicate", "--json"}, {good[0]}).out);
  EXPECT_EQ(reports[1] + "\n", Arbiter({"adjudicate", "--json"}, {good[1]}).out);

  // Alone, the bad file prints nothing on stdout.
  const ProcessResult alone = Arbiter({"adjudicate", "--json"}, {bad});
  EXPECT_EQ(alone.exit, 2);
  EXPECT_TRUE(alone.out.empty()) << alone.out;
}

// `import-sgf` of a whole collection writes each game's lines after the
// other's; `adjudicate -` judges each game as a call of its own would.
TEST_F(AdjudicateManyTest, AnImportedCollectionAdjudicatesEveryGame) {
  const std::vector<std::string> records = SgfRecords();
  ASSERT_EQ(records.size(), 30u);
  // Eleven of the records have no DT: --date gives their day.
  const ProcessResult stream = Arbiter({"import-sgf", "--date", "2026-05-01"}, records);
  ASSERT_EQ(stream.exit, 0) << stream.err;
  // Each line is one event exactly as protobuf prints it alone (import-sgf
  // prints a game's events in one call and cuts them apart).
  int created = 0;
  for (const std::string& line : Lines(stream.out)) {
    v1::Event event;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &event).ok()) << line;
    std::string alone;
    ASSERT_TRUE(google::protobuf::util::MessageToJsonString(event, &alone).ok());
    EXPECT_EQ(line, alone);
    created += event.has_game_created();
  }
  EXPECT_EQ(created, 30);
  const ProcessResult all = RunCli({"adjudicate", "--json", "-"}, stream.out);
  ASSERT_EQ(all.exit, 0) << all.err;
  const std::vector<std::string> reports = Lines(all.out);
  ASSERT_EQ(reports.size(), records.size()) << all.err;
  for (size_t i = 0; i < records.size(); ++i) {
    SCOPED_TRACE(records[i]);
    const ProcessResult events = Arbiter({"import-sgf", "--date", "2026-05-01"}, {records[i]});
    ASSERT_EQ(events.exit, 0) << events.err;
    EXPECT_TRUE(absl::StrContains(stream.out, events.out))
        << "the collection holds each game's lines";
    const ProcessResult one = RunCli({"adjudicate", "--json", "-"}, events.out);
    ASSERT_EQ(one.exit, 0) << one.err;
    EXPECT_EQ(reports[i] + "\n", one.out);
    // The game id is the file's name, and a resignation in RE is the result.
    EXPECT_EQ(GameId(reports[i]), fs::path(records[i]).stem().string());
    const std::string sgf = ReadFile(records[i]);
    const google::protobuf::Struct report = Json(reports[i]);
    for (const char* re : {"RE[B+R", "RE[W+R"}) {
      if (!absl::StrContains(sgf, re)) continue;
      const auto& result = report.fields().at("result").struct_value().fields();
      EXPECT_EQ(result.at("reason").string_value(), "RESIGNATION");
      EXPECT_EQ(result.at("outcome").string_value(), re[3] == 'B' ? "BLACK_WINS" : "WHITE_WINS");
    }
  }
}

// In a stream, a bad line loses only its own game: the line number counts
// from the start of the stream, and judging resumes at the next gameCreated.
TEST_F(AdjudicateManyTest, ABadGameInAStreamLosesOnlyItself) {
  const std::vector<std::string> files = Scenarios();
  const std::string first = ReadFile(files[0]), second = ReadFile(files[1]),
                    third = ReadFile(files[2]);
  const std::string bad_line = R"({"at": "2026-05-01T09:00:10Z", "teleport": {"color": "BLACK"}})";
  // The bad line goes after the second game's gameCreated.
  ASSERT_TRUE(absl::StrContains(second.substr(0, second.find('\n')), "gameCreated"));
  ASSERT_EQ(first.back(), '\n');
  const size_t created_end = second.find('\n') + 1;
  const std::string stream =
      first + second.substr(0, created_end) + bad_line + "\n" + second.substr(created_end) + third;
  const auto bad_number = std::count(first.begin(), first.end(), '\n') + 2;

  const ProcessResult r = RunCli({"adjudicate", "--json", "-"}, stream);
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find(absl::StrCat("stdin: line ", bad_number, ": ")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("teleport"), std::string::npos) << r.err;
  const std::vector<std::string> reports = Lines(r.out);
  ASSERT_EQ(reports.size(), 2u) << r.out;
  EXPECT_EQ(reports[0] + "\n", Arbiter({"adjudicate", "--json"}, {files[0]}).out);
  EXPECT_EQ(reports[1] + "\n", Arbiter({"adjudicate", "--json"}, {files[2]}).out);

  // Lines before any gameCreated belong to no game.
  const ProcessResult headless =
      RunCli({"adjudicate", "--json", "-"}, R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})"
                                            "\n" +
                                                third);
  EXPECT_EQ(headless.exit, 2);
  EXPECT_NE(headless.err.find("stdin: line 1: the first event must be gameCreated"),
            std::string::npos)
      << headless.err;
  EXPECT_EQ(headless.out, Arbiter({"adjudicate", "--json"}, {files[2]}).out);
}

// One game, one gameCreated (DOMAIN.md §6): a second gameCreated for an id
// already seen names both lines; the game still being read with that id
// gets no report, one already reported stays, and other ids are games of
// their own.
TEST_F(AdjudicateManyTest, ASecondGameCreatedForOneGameIsBadInputNamingBothLines) {
  const auto created = [](const std::string& id) {
    return absl::StrCat(R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": ")", id,
                        R"(", "boardSize": 19}})", "\n");
  };
  const std::string move =
      R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"
      "\n";
  // g, h, then g again: g and h are reported, the second g is refused.
  ProcessResult r = RunCli({"adjudicate", "--json", "-"},
                           created("g") + move + created("h") + move + created("g") + move);
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("stdin: line 5: a second gameCreated for game \"g\" (its first at stdin: "
                       "line 1)"),
            std::string::npos)
      << r.err;
  std::vector<std::string> reports = Lines(r.out);
  ASSERT_EQ(reports.size(), 2u) << r.out;
  EXPECT_EQ(GameId(reports[0]), "g");
  EXPECT_EQ(GameId(reports[1]), "h");
  // Across files too; a game repeated straight after itself gets no report.
  const std::string once = Write("once.jsonl", created("k") + move);
  r = Arbiter({"adjudicate", "--json"}, {once, once});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find(once + ": line 1: a second gameCreated for game \"k\" (its first at " +
                       once + ": line 1)"),
            std::string::npos)
      << r.err;
  r = RunCli({"adjudicate", "--json", "-"}, created("m") + move + created("m") + move);
  EXPECT_EQ(r.exit, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// adjudicate parses lines in batches (cli/event_lines.h); each line must
// still be judged as it is alone: two objects on a line, or one object
// over two lines, are bad input at their own line numbers, and quotes,
// braces and escapes inside strings are only text.
TEST_F(AdjudicateManyTest, EachLineIsParsedAsItIsAlone) {
  const std::string created =
      R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "g", "boardSize": 19, )"
      R"("black": {"name": "O'Brien {\"}\" ]", "rank": "1d"}, "white": {"name": "'}'"}}})";
  const std::string started = R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})";
  const std::string move =
      R"({"at": "2026-05-01T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})";
  const std::string good = Write("good.jsonl", created + "\n" + started + "\n" + move + "\n");
  ProcessResult r = Arbiter({"adjudicate", "--json"}, {good});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(GameId(r.out), "g");

  const std::string two_on_a_line =
      Write("two.jsonl", created + "\n" + started + ", " + move + "\n" + move + "\n");
  r = Arbiter({"adjudicate", "--json"}, {two_on_a_line});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("line 2: "), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;

  const size_t split = move.find("\"move\"");
  const std::string over_two_lines =
      Write("split.jsonl", created + "\n" + started + "\n" + move.substr(0, split) + "\n" +
                               move.substr(split) + "\n");
  r = Arbiter({"adjudicate", "--json"}, {over_two_lines});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("line 3: "), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(AdjudicateManyTest, ImportSgfNamesABadRecordAndStillConvertsTheOthers) {
  const std::vector<std::string> records = SgfRecords();
  const std::string bad = Write("broken.sgf", "(;FF[4]GM[1]SZ[19];B[pd];W[pd])");  // occupied
  const std::vector<std::string> import = {"import-sgf", "--date", "2026-05-01"};
  const ProcessResult r = Arbiter(import, {records[0], bad, records[1]});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("arbiter import-sgf: " + bad + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, Arbiter(import, {records[0]}).out + Arbiter(import, {records[1]}).out);
}

}  // namespace
}  // namespace arbiter::testing
