// End to end: the `arbiter` binary's import-sgf, alone and piped into
// `adjudicate --json -`, on the shared games and on bad records.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/time/civil_time.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"
#include "tests/board/naive_board.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;
using google::protobuf::util::JsonStringToMessage;
using google::protobuf::util::TimeUtil;

using testing::ArbiterBinary;
using testing::FilesIn;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunArbiter;
using testing::TestDataPath;

class ImportSgfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(ArbiterBinary()))
        << "the arbiter binary is not built: " << ArbiterBinary();
  }

  // A file in this test's directory.
  fs::path WriteTemp(const std::string& name, const std::string& text) {
    const std::string path = dir_.File(name);
    testing::WriteFile(path, text);
    return path;
  }

  testing::TempDir dir_{"import-sgf-test"};
};

std::vector<fs::path> SharedGameFiles() { return FilesIn(TestDataPath("sgf"), ".sgf"); }

// Parses every line strictly as an Event.
std::vector<v1::Event> ParseEvents(const std::string& out) {
  std::vector<v1::Event> events;
  google::protobuf::util::JsonParseOptions strict;
  strict.ignore_unknown_fields = false;
  for (const absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    v1::Event event;
    const auto status = JsonStringToMessage(std::string(line), &event, strict);
    EXPECT_TRUE(status.ok()) << line;
    events.push_back(event);
  }
  return events;
}

TEST_F(ImportSgfTest, SharedGamesBecomeOrderedEvents) {
  for (const fs::path& file : SharedGameFiles()) {
    SCOPED_TRACE(file.filename().string());
    const ProcessResult run = RunArbiter({"import-sgf", file.string(), "--date", "2026-05-01"});
    ASSERT_EQ(run.exit, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const std::vector<v1::Event> events = ParseEvents(run.out);
    const absl::StatusOr<SgfGame> game = ParseSgf(ReadFile(file.string()));
    ASSERT_TRUE(game.ok());
    ASSERT_GE(events.size(), 2u);
    ASSERT_TRUE(events[0].has_game_created());
    EXPECT_TRUE(events[1].has_game_started());
    const v1::GameCreated& created = events[0].game_created();
    EXPECT_EQ(created.ruleset(), "cn-2002");
    EXPECT_EQ(created.board_size(), 19);
    EXPECT_EQ(created.black().name(), game->black_name);
    EXPECT_EQ(created.venue(), v1::GameCreated::SAME_SITE);
    EXPECT_FALSE(created.has_time_control());  // no BL/WL in these records
    EXPECT_EQ(created.game_id(), file.stem().string());
    // DT's day, or the --date day for a record without one.
    EXPECT_EQ(TimeUtil::ToString(created.scheduled_start()).substr(0, 10),
              SgfDate(*game).has_value() ? absl::FormatCivilTime(*SgfDate(*game)) : "2026-05-01");
    ASSERT_TRUE(game->komi.has_value());
    EXPECT_EQ(created.komi_stones(), *game->komi / 2);
    size_t plays = 0;
    size_t resigns = 0;
    for (size_t i = 1; i < events.size(); ++i) {
      EXPECT_LE(TimeUtil::TimestampToNanoseconds(events[i - 1].at()),
                TimeUtil::TimestampToNanoseconds(events[i].at()));
      if (events[i].has_move() || events[i].has_pass()) ++plays;
      if (events[i].has_resign()) ++resigns;
    }
    EXPECT_EQ(plays, game->moves.size());
    const bool resigned = game->result == "B+R" || game->result == "W+R" ||
                          game->result == "B+Resign" || game->result == "W+Resign";
    EXPECT_EQ(resigns, resigned ? 1u : 0u);
  }
}

TEST_F(ImportSgfTest, SetupTimesAndResignation) {
  const fs::path file = WriteTemp(
      "timed.sgf",
      "(;FF[4]SZ[9]KM[7]DT[2026-05-01,02]PB[Li]BR[5d]PW[Wang]AB[cc][gg]PL[W]RE[W+Resign]\n"
      ";W[ee]WL[595.5];B[ec]BL[590];W[ce]WL[580];B[]BL[589])");
  const ProcessResult run = RunArbiter({"import-sgf", file.string()});
  ASSERT_EQ(run.exit, 0) << run.err;
  const std::vector<v1::Event> events = ParseEvents(run.out);
  ASSERT_EQ(events.size(), 7u);
  const v1::GameCreated& created = events[0].game_created();
  EXPECT_EQ(created.game_id(), file.stem().string());
  EXPECT_EQ(created.board_size(), 9);
  EXPECT_EQ(created.black().rank(), "5d");
  EXPECT_EQ(created.komi_stones(), 3.5);
  EXPECT_EQ(TimeUtil::ToString(created.scheduled_start()), "2026-05-01T00:00:00Z");
  EXPECT_EQ(created.time_control().main_time().seconds(), 600);  // 595.5 s rounded up
  EXPECT_EQ(created.setup().black_size(), 2);
  EXPECT_EQ(created.setup().black(0), "C7");
  EXPECT_EQ(created.setup().first_to_move(), v1::WHITE);
  // White used 4.5 s, Black 10 s, White 15.5 s, then Black's pass 1 s.
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-01T00:00:04.500Z");
  EXPECT_EQ(TimeUtil::ToString(events[3].at()), "2026-05-01T00:00:14.500Z");
  EXPECT_EQ(TimeUtil::ToString(events[4].at()), "2026-05-01T00:00:30Z");
  EXPECT_EQ(TimeUtil::ToString(events[5].at()), "2026-05-01T00:00:31Z");
  EXPECT_TRUE(events[5].has_pass());
  ASSERT_TRUE(events[6].has_resign());
  EXPECT_EQ(events[6].resign().color(), v1::BLACK);
}

// A byo-yomi record imported and adjudicated: the clock is kept, the
// adjudicator charges the periods the record shows, and no flag falls where
// the record plays on.
TEST_F(ImportSgfTest, ByoYomiRecordKeepsItsClockThroughTheAdjudicator) {
  const fs::path file =
      WriteTemp("byoyomi.sgf",
                "(;FF[4]GM[1]SZ[19]DT[2026-05-01]TM[60]OT[5x30 byo-yomi]RE[B+R]\n"
                ";B[pd]BL[50];W[dd]WL[40];B[pp]BL[20]OB[5];W[dp]WL[25]OW[4];B[cc]BL[28.5]OB[5]\n"
                ";W[qc]WL[1.5]OW[2];B[qd]BL[29]OB[5])");
  const ProcessResult imported = RunArbiter({"import-sgf", file.string()});
  ASSERT_EQ(imported.exit, 0) << imported.err;
  testing::RunOptions piped;
  piped.input = imported.out;
  const ProcessResult run = RunArbiter({"adjudicate", "--json", "-"}, piped);
  ASSERT_EQ(run.exit, 0) << run.err;
  google::protobuf::Struct report;
  ASSERT_TRUE(JsonStringToMessage(run.out, &report).ok()) << run.out;
  EXPECT_EQ(report.fields().at("rulings").list_value().values_size(), 0) << run.out;
  const auto& result = report.fields().at("result").struct_value().fields();
  EXPECT_EQ(result.at("sgf").string_value(), "B+R");  // resigned, not flagged
  const auto& clocks =
      report.fields().at("state").struct_value().fields().at("clocks").struct_value();
  // White used two periods and most of a third on W[qc] (28.5 + 2 x 30 s).
  EXPECT_EQ(
      clocks.fields().at("white").struct_value().fields().at("periodsRemaining").number_value(), 2);
  EXPECT_EQ(
      clocks.fields().at("black").struct_value().fields().at("periodsRemaining").number_value(), 5);
}

// A record written before FF[4] (lower-case letters in its identifiers, as a
// 1957 game's record has them) imports as the specification reads it.
TEST_F(ImportSgfTest, OlderFormatRecordImports) {
  const fs::path file = WriteTemp(
      "ff3.sgf",
      "(;GaMe[1]FileFormat[3]VieW[]SiZe[19]PlayerBlack[Go Seigen]PlayerWhite[Takagawa Kaku]\n"
      "DaTe[1957-06-24]AddBlack[pd][dp];White[dd];Black[pp];White[qf])");
  const ProcessResult run = RunArbiter({"import-sgf", file.string()});
  ASSERT_EQ(run.exit, 0) << run.err;
  const std::vector<v1::Event> events = ParseEvents(run.out);
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[0].game_created().black().name(), "Go Seigen");
  EXPECT_EQ(events[0].game_created().setup().black_size(), 2);
  EXPECT_EQ(TimeUtil::ToString(events[0].game_created().scheduled_start()), "1957-06-24T00:00:00Z");
  EXPECT_EQ(events[2].move().color(), v1::WHITE);
  EXPECT_EQ(events[4].move().point(), "R14");
}

TEST_F(ImportSgfTest, BadRecordsExit2WithNothingOnStdout) {
  struct Case {
    const char* name;
    const char* sgf;
    const char* error;
  };
  const Case cases[] = {
      {"unclosed.sgf", "(;SZ[19]\n;B[pd];W[dd]", "line 1, column 1"},
      {"seven.sgf", "(;SZ[7];B[aa])", "line 1, column 5: board size 7 is not supported"},
      {"occupied.sgf", "(;SZ[9]\n;B[ee];W[ee])",
       "line 2, column 8: illegal move: White at E5 (occupied)"},
      {"suicide.sgf", "(;SZ[9]AB[ba][ab];W[aa])",
       "line 1, column 19: illegal move: White at A9 (suicide)"},
      {"badpoint.sgf", "(;SZ[9];B[zz])", "line 1, column 10: \"zz\" is not a point"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = WriteTemp(c.name, c.sgf);
    const ProcessResult run = RunArbiter({"import-sgf", file.string()});
    EXPECT_EQ(run.exit, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find(c.error), std::string::npos) << run.err;
  }
  const ProcessResult ko = RunArbiter(
      {"import-sgf",
       WriteTemp("ko.sgf", "(;SZ[9];B[dd];W[ed];B[ce];W[fe];B[df];W[ef];B[ii];W[de];B[ee];W[de])")
           .string()});
  EXPECT_EQ(ko.exit, 2);
  EXPECT_EQ(ko.out, "");
  EXPECT_NE(ko.err.find("illegal move: White at D5 (immediate ko recapture)"), std::string::npos)
      << ko.err;

  const ProcessResult missing = RunArbiter({"import-sgf", "/nonexistent/game.sgf"});
  EXPECT_EQ(missing.exit, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("/nonexistent/game.sgf"), std::string::npos);
  const ProcessResult usage = RunArbiter({"import-sgf"});
  EXPECT_EQ(usage.exit, 2);
  EXPECT_EQ(usage.out, "");
  EXPECT_NE(usage.err.find("usage"), std::string::npos);
  EXPECT_EQ(RunArbiter({"import-sgf", "a.sgf", "b.sgf"}).exit, 2);
  EXPECT_EQ(RunArbiter({"import-sgf", "a.sgf", "--game"}).exit, 2);
}

// A record's game is never dated by invention (issue 28): without DT's date
// the record is refused, saying how to give the day; --date gives it, and a
// record's own DT wins over it.
TEST_F(ImportSgfTest, AnUndatedRecordIsRefusedUnlessDatedFromTheFlag) {
  const fs::path undated = WriteTemp("undated.sgf", "(;FF[4]SZ[19];B[pd];W[dd])");
  const ProcessResult refused = RunArbiter({"import-sgf", undated.string()});
  EXPECT_EQ(refused.exit, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("the record has no date (DT[YYYY-MM-DD])"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--date YYYY-MM-DD"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find("2000-01-01"), std::string::npos) << refused.err;

  const ProcessResult dated = RunArbiter({"import-sgf", undated.string(), "--date", "2026-05-03"});
  ASSERT_EQ(dated.exit, 0) << dated.err;
  const std::vector<v1::Event> events = ParseEvents(dated.out);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(TimeUtil::ToString(events[0].game_created().scheduled_start()), "2026-05-03T00:00:00Z");
  EXPECT_EQ(TimeUtil::ToString(events[2].at()), "2026-05-03T00:00:01Z");

  const fs::path own = WriteTemp("own.sgf", "(;FF[4]SZ[19]DT[2019-03-07];B[pd])");
  const ProcessResult kept = RunArbiter({"import-sgf", own.string(), "--date", "2026-05-03"});
  ASSERT_EQ(kept.exit, 0) << kept.err;
  EXPECT_EQ(TimeUtil::ToString(ParseEvents(kept.out)[0].game_created().scheduled_start()),
            "2019-03-07T00:00:00Z");

  for (const char* bad : {"2026-5-3", "03.05.2026", "2026-02-30"}) {
    const ProcessResult usage = RunArbiter({"import-sgf", undated.string(), "--date", bad});
    EXPECT_EQ(usage.exit, 2) << bad;
    EXPECT_NE(usage.err.find("--date must be a day, YYYY-MM-DD"), std::string::npos) << usage.err;
  }
}

// SGF FF[4] allows partial dates (DT[1996-08], DT[1996]): the record is
// imported, dated to the first day of the span, and the report on stderr
// says so; the game then adjudicates under the default rules as any other.
TEST_F(ImportSgfTest, APartialDateIsImportedAsTheFirstDayOfItsSpanAndSaidSo) {
  const fs::path month = WriteTemp("month.sgf", "(;FF[4]SZ[19]DT[1996-08]RE[W+R];B[pd];W[dd])");
  const ProcessResult imported = RunArbiter({"import-sgf", month.string()});
  ASSERT_EQ(imported.exit, 0) << imported.err;
  const std::vector<v1::Event> events = ParseEvents(imported.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(TimeUtil::ToString(events[0].game_created().scheduled_start()), "1996-08-01T00:00:00Z");
  EXPECT_EQ(imported.err, "arbiter import-sgf: " + month.string() +
                              ": DT[1996-08] names no day: the game is dated 1996-08-01, the first "
                              "day of the span it names\n");
  const ProcessResult judged = RunArbiter({"adjudicate", "--json", "-"}, {.input = imported.out});
  ASSERT_EQ(judged.exit, 0) << judged.err;
  google::protobuf::Struct report;
  ASSERT_TRUE(JsonStringToMessage(judged.out, &report).ok()) << judged.out;
  ASSERT_TRUE(report.fields().contains("ruleset")) << judged.out;
  EXPECT_EQ(report.fields().at("ruleset").string_value(), "cn-2002");

  // A year alone; with --date too, the record's own DT still wins.
  const fs::path year = WriteTemp("year.sgf", "(;FF[4]SZ[19]DT[1996];B[pd])");
  const ProcessResult kept = RunArbiter({"import-sgf", year.string(), "--date", "2026-05-03"});
  ASSERT_EQ(kept.exit, 0) << kept.err;
  EXPECT_EQ(TimeUtil::ToString(ParseEvents(kept.out)[0].game_created().scheduled_start()),
            "1996-01-01T00:00:00Z");
  EXPECT_NE(kept.err.find("DT[1996] names no day: the game is dated 1996-01-01"), std::string::npos)
      << kept.err;
}

// A game that ended with two passes and a count (RE[B+0.5]) has no dead
// stones in its record: the adjudicated game says so, not "in progress".
TEST_F(ImportSgfTest, ACountedRecordSaysTheDeadStonesAreMissing) {
  const fs::path file =
      WriteTemp("counted.sgf", "(;FF[4]SZ[19]DT[2026-05-01]KM[7.5]RE[B+0.5];B[pd];W[dd];B[];W[])");
  const ProcessResult imported = RunArbiter({"import-sgf", file.string()});
  ASSERT_EQ(imported.exit, 0) << imported.err;
  const ProcessResult text = RunArbiter({"adjudicate", "-"}, {.input = imported.out});
  ASSERT_EQ(text.exit, 0) << text.err;
  EXPECT_NE(text.out.find("the dead stones are not recorded: add `deadStones` to count"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("in progress"), std::string::npos) << text.out;
  // With the dead stones (none here) the count follows.
  const ProcessResult counted =
      RunArbiter({"adjudicate", "-"},
                 {.input = imported.out + R"({"at":"2026-05-01T00:00:05Z","deadStones":{}})"
                                          "\n"});
  ASSERT_EQ(counted.exit, 0) << counted.err;
  EXPECT_EQ(counted.out.find("not recorded"), std::string::npos) << counted.out;
}

// --game names the game; without it the file's name does (GN is a title).
TEST_F(ImportSgfTest, GameIdFromTheFlagElseTheFileName) {
  const fs::path file = SharedGameFiles().front();
  const ProcessResult named =
      RunArbiter({"import-sgf", file.string(), "--game", "r3-b1", "--date", "2026-05-01"});
  ASSERT_EQ(named.exit, 0) << named.err;
  EXPECT_EQ(named.out.rfind(R"({"at":)", 0), 0u);
  EXPECT_NE(named.out.find(R"("gameId":"r3-b1")"), std::string::npos) << named.out.substr(0, 300);
  const ProcessResult plain = RunArbiter({"import-sgf", file.string(), "--date", "2026-05-01"});
  ASSERT_EQ(plain.exit, 0) << plain.err;
  EXPECT_NE(plain.out.find("\"gameId\":\"" + file.stem().string() + "\""), std::string::npos);
}

// import-sgf | adjudicate --json -: the final board and prisoners of every
// shared game equal the naive board's.
TEST_F(ImportSgfTest, AdjudicatedBoardAndPrisonersMatchTheNaiveBoard) {
  for (const fs::path& file : SharedGameFiles()) {
    SCOPED_TRACE(file.filename().string());
    const ProcessResult imported =
        RunArbiter({"import-sgf", file.string(), "--date", "2026-05-01"});
    ASSERT_EQ(imported.exit, 0) << imported.err;
    const ProcessResult run = RunArbiter({"adjudicate", "--json", "-"}, {.input = imported.out});
    ASSERT_EQ(run.exit, 0) << run.err;
    google::protobuf::Struct report;
    ASSERT_TRUE(JsonStringToMessage(run.out, &report).ok()) << run.out;
    const auto& state = report.fields().at("state").struct_value();
    std::vector<std::string> board;
    for (const auto& row : state.fields().at("board").list_value().values()) {
      board.push_back(row.string_value());
    }
    const auto& prisoners = state.fields().at("prisoners").struct_value().fields();

    const absl::StatusOr<SgfGame> game = ParseSgf(ReadFile(file.string()));
    ASSERT_TRUE(game.ok());
    testing::NaiveBoard naive(19);
    for (const SgfMove& move : game->moves) {
      const char stone = move.color == v1::BLACK ? 'X' : 'O';
      if (!move.vertex.has_value()) {
        naive.Pass(stone);
        continue;
      }
      ASSERT_EQ(naive.Play(ColumnOf(*move.vertex, 19), 19 - RowOf(*move.vertex, 19), stone),
                testing::NaiveBoard::Outcome::kPlayed);
    }
    EXPECT_EQ(board, naive.grid());
    auto count = [&](const char* key) {
      return prisoners.count(key) ? static_cast<int>(prisoners.at(key).number_value()) : 0;
    };
    EXPECT_EQ(count("black"), naive.black_captures());
    EXPECT_EQ(count("white"), naive.white_captures());
  }
}

}  // namespace
}  // namespace arbiter
