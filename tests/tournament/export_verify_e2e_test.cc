// Exports name the record they came from (DOMAIN.md, "Exports name the
// record they came from"), checked from the outside: files written by
// `arbiter tournament export` through a real `arbiter serve`, one result
// line edited by hand as a venue could, and `arbiter verify --export FILE`
// run against the server's ledger (--db) and through the server (--server).
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/pg_cluster.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::ReadFile;
using tournament_e2e::Created;

class ExportVerify : public tournament_e2e::E2E {
 protected:
  // Two games adjudicated by the server and a round robin pairing them:
  // 李伟 (A) beats Wang Ming (B) by resignation, Chen Jie (C) loses to
  // Zhou Yu (D) for looking at a phone (art. 23.7).
  void SetUpCup() {
    Record("g1", Created("G1", "李伟", "Wang Ming") +
                     "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
    Record("g2", Created("G2", "Chen Jie", "Zhou Yu") +
                     "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneViewed\": {\"color\": "
                     "\"BLACK\"}}\n");
    ProcessResult r = CreateSpringCup();
    ASSERT_EQ(r.exit, 0) << r.err;
    r = Cli(
        {"tournament", "pair", "cup", "--round", "1", "--board", "A,B,G1", "--board", "C,D,G2"});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  std::string Export(const std::string& format) {
    const std::string path = dir_.File("cup." + format);
    ProcessResult r = Cli({"tournament", "export", "cup", "--format", format, "--out", path});
    EXPECT_EQ(r.exit, 0) << r.err;
    return path;
  }

  // `verify --export FILE --db <the server's data>`.
  ProcessResult VerifyDb(const std::string& file, const std::string& db = "") {
    return Run({"verify", "--export", file, "--db", db.empty() ? dir_.File("data") : db});
  }
  ProcessResult VerifyServer(const std::string& file) { return Cli({"verify", "--export", file}); }

  // Replaces `from` by `to` in the first line of `path` holding `from`;
  // that line's 1-based number, its text before and after.
  struct Edit {
    int line = 0;
    std::string before, after;
  };
  Edit EditLine(const std::string& path, const std::string& from, const std::string& to) {
    std::vector<std::string> lines = absl::StrSplit(ReadFile(path), '\n');
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].find(from) == std::string::npos) continue;
      Edit e{static_cast<int>(i + 1), lines[i], absl::StrReplaceAll(lines[i], {{from, to}})};
      lines[i] = e.after;
      testing::WriteFile(path, absl::StrJoin(lines, "\n"));
      return e;
    }
    ADD_FAILURE() << "no line of " << path << " holds " << from;
    return {};
  }

  // The changed file is refused, naming the edited line and both texts.
  // `tournament export ID --format FORMAT` refused for want of `flag` (a
  // title or place the file cannot write): bad input saying `why` and
  // naming the option, and neither the file nor its sidecar written.
  void ExpectNotExported(const std::string& id, const std::string& format, const std::string& file,
                         const std::string& why, const std::string& flag) {
    const ProcessResult r = Cli({"tournament", "export", id, "--format", format, "--out", file});
    EXPECT_EQ(r.exit, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(why));
    EXPECT_THAT(r.err, HasSubstr(absl::StrCat("--format ", format, " ", flag)));
    EXPECT_FALSE(std::filesystem::exists(file));
    EXPECT_FALSE(std::filesystem::exists(file + ".reasons.json"));
  }

  void ExpectRefusedAt(const ProcessResult& r, const Edit& e) {
    EXPECT_EQ(r.exit, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrCat("line ", e.line, " differs")));
    // A CSV line's CR is not part of its text.
    EXPECT_THAT(r.out,
                HasSubstr(absl::StrCat("the file has:  ", absl::StripSuffix(e.after, "\r"))));
    EXPECT_THAT(r.out,
                HasSubstr(absl::StrCat("the log gives: ", absl::StripSuffix(e.before, "\r"))));
  }
};

TEST_F(ExportVerify, EveryFormatVerifiesAgainstTheLogOfflineAndThroughTheServer) {
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  for (const char* format : {"h9", "aga", "opengotha", "csv", "json"}) {
    SCOPED_TRACE(format);
    const std::string file = Export(format);
    EXPECT_THAT(ReadFile(file),
                HasSubstr(std::string(format) == "json" ? "\"checkpoint\": {"
                                                        : "tournaments/cup at checkpoint "))
        << "names its record";
    ProcessResult r = VerifyDb(file);
    EXPECT_EQ(r.exit, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("matches"));
    r = VerifyServer(file);
    EXPECT_EQ(r.exit, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("matches"));
  }
}

TEST_F(ExportVerify, LaterEventsDoNotChangeWhatAnExportIsCheckedAgainst) {
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  const std::string file = Export("h9");
  // Round 2 paired and a game played after the export: the file was derived
  // at its checkpoint, and is checked against the log at that size.
  Record("g3", Created("G3", "李伟", "Chen Jie") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"BLACK\"}}\n");
  ProcessResult r =
      Cli({"tournament", "pair", "cup", "--round", "2", "--board", "A,C,G3", "--board", "B,D"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = VerifyDb(file);
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  r = VerifyServer(file);
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  // Round 2 board 2 has no result yet: the EGF table could only call it
  // "0-", a free round, so the export is refused, naming it, and writes
  // nothing.
  const std::string later = dir_.File("later.h9");
  r = Cli({"tournament", "export", "cup", "--format", "h9", "--out", later});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("EGD .h9: no result yet for round 2 board 2;"));
  EXPECT_FALSE(std::filesystem::exists(later));
  EXPECT_FALSE(std::filesystem::exists(later + ".reasons.json"));
  r = Cli({"tournament", "result", "cup", "--round", "2", "--board", "2", "--outcome", "white-wins",
           "--reason", "score sheet"});
  ASSERT_EQ(r.exit, 0) << r.err;
  // A new export names a later checkpoint and holds round 2.
  ASSERT_EQ(Cli({"tournament", "export", "cup", "--format", "h9", "--out", later}).exit, 0);
  EXPECT_NE(ReadFile(later), ReadFile(file));
  EXPECT_EQ(VerifyDb(later).exit, 0);
}

TEST_F(ExportVerify, AChangedResultLineIsNamed) {
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  // .h9: Li Wei's round 1, a win with Black, made a loss.
  std::string file = Export("h9");
  Edit e = EditLine(file, "+/b0", "-/b0");
  ExpectRefusedAt(VerifyDb(file), e);
  ExpectRefusedAt(VerifyServer(file), e);
  // AGA: "white black winner handicap komi": G1 (B white, A black) won by
  // Black, made White's win.
  file = Export("aga");
  e = EditLine(file, "99998\t99999\tB\t", "99998\t99999\tW\t");
  ExpectRefusedAt(VerifyDb(file), e);
  ExpectRefusedAt(VerifyServer(file), e);
  // OpenGotha: G1's Game element, Black's win made White's.
  file = Export("opengotha");
  e = EditLine(file, "RESULT_BLACKWINS\"", "RESULT_WHITEWINS\"");
  ExpectRefusedAt(VerifyDb(file), e);
  ExpectRefusedAt(VerifyServer(file), e);
  // CSV: Chen Jie's points.
  file = Export("csv");
  e = EditLine(file, ",C,Chen Jie,0,", ",C,Chen Jie,2,");
  ExpectRefusedAt(VerifyDb(file), e);
}

// Probe F6b: a copy with a UTF-8 byte-order mark added (Excel's "CSV UTF-8"
// save, many editors) does not match, and says why; it was refused as
// naming no record (exit 2), though it names one. (A CSV with one is the
// spreadsheet flavour's: CsvForASpreadsheetVerifies.)
TEST_F(ExportVerify, ACopyWithAByteOrderMarkDoesNotMatchAndSaysWhy) {
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  for (const char* format : {"opengotha", "json"}) {
    SCOPED_TRACE(format);
    const std::string file = Export(format);
    testing::WriteFile(file, "\xEF\xBB\xBF" + ReadFile(file));
    for (const ProcessResult& r : {VerifyDb(file), VerifyServer(file)}) {
      EXPECT_EQ(r.exit, 1) << r.out << r.err;
      EXPECT_THAT(r.out, HasSubstr("does NOT match the log: it starts with a byte-order mark"));
      EXPECT_THAT(r.out, HasSubstr("export of tournaments/cup at checkpoint"));
    }
  }
}

// Review item 1: the JSON lists the byes (a bye credited nothing after a
// withdrawal says so), the sidecar has an entry for each, and the file
// verifies; so does a JSON export of a release before, which had no
// "byes", as that release wrote it, and an edit to it is still named.
TEST_F(ExportVerify, TheJsonWithItsByesVerifiesAndSoDoesOneWrittenBefore) {
  // Three players, a round robin, a bye worth 1 each round: R1 A-B (G1),
  // bye C; R2 A-C (G2), bye B; R3 B-C, bye A, who withdraws after round 2.
  Record("g1", Created("G1", "李伟", "Wang Ming") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  Record("g2", Created("G2", "李伟", "Chen Jie") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  ProcessResult r =
      Cli({"tournament", "create", "--id", "trio", "--system", "round-robin", "--title", "Trio",
           "--bye-points", "1", "--player", "A:李,伟:5D", "--romanized", "A:Li,Wei", "--player",
           "B:Wang,Ming:4D", "--player", "C:Chen,Jie:1K"});
  ASSERT_EQ(r.exit, 0) << r.err;
  for (const std::vector<std::string>& round :
       {std::vector<std::string>{"1", "A,B,G1", "C"}, {"2", "A,C,G2", "B"}, {"3", "B,C", "A"}}) {
    r = Cli({"tournament", "pair", "trio", "--round", round[0], "--board", round[1], "--bye",
             round[2]});
    ASSERT_EQ(r.exit, 0) << r.err;
  }
  r = Cli({"tournament", "withdraw", "trio", "--player", "A", "--after-round", "2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  const std::string file = dir_.File("trio.json");
  r = Cli({"tournament", "export", "trio", "--format", "json", "--out", file});
  ASSERT_EQ(r.exit, 0) << r.err;

  // Read by Python's json module (tests/readers/tournament_files.py).
  r = testing::Run({"/usr/bin/env", "python3",
                    testing::SourcePath("tests/readers/tournament_files.py"), "json=" + file});
  if (r.exit == 127) GTEST_SKIP() << "no python3: " << r.err;
  ASSERT_EQ(r.exit, 0) << r.err;
  google::protobuf::Struct read;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &read).ok()) << r.out;
  const google::protobuf::Struct& doc = read.fields().at("json").struct_value();
  ASSERT_TRUE(doc.fields().contains("byes")) << ReadFile(file);
  const auto& byes = doc.fields().at("byes").list_value().values();
  ASSERT_EQ(byes.size(), 3);
  std::vector<std::string> seen;
  for (const auto& b : byes) {
    const auto& f = b.struct_value().fields();
    seen.push_back(absl::StrCat(
        f.at("round").number_value(), " ", f.at("player").string_value(), " ",
        f.contains("points") ? f.at("points").number_value() : 0, " ",
        f.contains("notCredited") ? f.at("notCredited").string_value().substr(0, 22) : "credited"));
  }
  EXPECT_THAT(seen, ::testing::ElementsAre("1 C 1 credited", "2 B 1 credited",
                                           "3 A 0 withdrew after round 2"));
  // GetStandings lists the same byes.
  v1::StandingsReport standings;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("trio", &standings));
  ASSERT_EQ(standings.byes_size(), 3);
  EXPECT_EQ(standings.byes(2).player(), "A");
  EXPECT_THAT(standings.byes(2).not_credited(), HasSubstr("withdrew after round 2"));
  // The sidecar has each bye.
  const std::string sidecar = ReadFile(file + ".reasons.json");
  EXPECT_THAT(sidecar, HasSubstr("\"tournaments/trio/round/3/bye/A\": {"));
  EXPECT_THAT(sidecar, HasSubstr("a bye credited nothing: withdrew after round 2"));

  for (const ProcessResult& v : {VerifyDb(file), VerifyServer(file)}) {
    EXPECT_EQ(v.exit, 0) << v.out << v.err;
    EXPECT_THAT(v.out, HasSubstr("matches"));
  }

  // The same record exported before the byes were listed: the report as
  // the JSON writer printed it then (no "byes").
  v1::StandingsReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(ReadFile(file), &report).ok());
  report.clear_byes();
  google::protobuf::util::JsonPrintOptions print;
  print.add_whitespace = true;
  std::string before;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(report, &before, print).ok());
  ASSERT_THAT(before, ::testing::Not(HasSubstr("\"byes\"")));
  const std::string old_file = dir_.File("trio-before.json");
  testing::WriteFile(old_file, before);
  for (const ProcessResult& v : {VerifyDb(old_file), VerifyServer(old_file)}) {
    EXPECT_EQ(v.exit, 0) << v.out << v.err;
    EXPECT_THAT(v.out, HasSubstr("as the JSON export wrote it before it listed the byes"));
  }
  // A changed point in it is still named.
  const Edit e = EditLine(old_file, "\"blackPoints\": 2", "\"blackPoints\": 1");
  ExpectRefusedAt(VerifyDb(old_file), e);
  ExpectRefusedAt(VerifyServer(old_file), e);
}

// Review item 2: a tournament titled in Chinese reaches the EGD and the AGA
// with --title, refused naming the option without it (nothing written),
// and the file verifies with the title it gives.
TEST_F(ExportVerify, ATitleGivenAtExportReachesTheRatingFormatsAndVerifies) {
  Record("g1", Created("G1", "李伟", "Wang Ming") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  ProcessResult r = Cli({"tournament",
                         "create",
                         "--id",
                         "cn",
                         "--system",
                         "round-robin",
                         "--title",
                         "全国围棋个人赛",
                         "--player",
                         "A:李,伟:5D",
                         "--romanized",
                         "A:Li,Wei",
                         "--player",
                         "B:Wang,Ming:4D",
                         "--location",
                         "Beijing",
                         "--country",
                         "CN",
                         "--egf-class",
                         "B",
                         "--adjusted-time",
                         "60"});
  ASSERT_EQ(r.exit, 0) << r.err;
  ASSERT_EQ(Cli({"tournament", "pair", "cn", "--round", "1", "--board", "A,B,G1"}).exit, 0);
  for (const char* format : {"h9", "aga"}) {
    SCOPED_TRACE(format);
    const std::string file = dir_.File(absl::StrCat("cn.", format));
    ExpectNotExported("cn", format, file, "title \"全国围棋个人赛\" is not ASCII", "--title");

    r = Cli({"tournament", "export", "cn", "--format", format, "--out", file, "--title",
             "National Individual Championship"});
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_THAT(ReadFile(file),
                HasSubstr(std::string(format) == "h9" ? "; EV[National Individual Championship]\n"
                                                      : "TOURNEY National Individual Championship, "
                                                        "Beijing\n"));
    for (const ProcessResult& v : {VerifyDb(file), VerifyServer(file)}) {
      EXPECT_EQ(v.exit, 0) << v.out << v.err;
      EXPECT_THAT(v.out, HasSubstr("with the title \"National Individual Championship\" given "
                                   "at export"));
    }
    const Edit e = std::string(format) == "h9" ? EditLine(file, "+/b0", "-/b0")
                                               : EditLine(file, "\tB\t", "\tW\t");
    ExpectRefusedAt(VerifyDb(file), e);
    ExpectRefusedAt(VerifyServer(file), e);
  }
  // A title the format cannot hold, or --title for another format: bad
  // usage, nothing asked or written.
  const std::string bad = dir_.File("bad.out");
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--format", "aga", "--title", "Cup, Beijing"},
        {"--format", "h9", "--title", "Cup [A]"},
        {"--format", "h9", "--title", "全国赛"},
        {"--format", "csv", "--title", "Cup"},
        {"--format", "h9", "--for-spreadsheet"}}) {
    std::vector<std::string> args = {"tournament", "export", "cn", "--out", bad};
    args.insert(args.end(), flags.begin(), flags.end());
    r = Cli(args);
    EXPECT_EQ(r.exit, 2) << absl::StrJoin(flags, " ") << r.err;
    EXPECT_THAT(r.err, HasSubstr(flags[2] == "--for-spreadsheet" ? "--for-spreadsheet with"
                                                                 : "--title with"));
    EXPECT_FALSE(std::filesystem::exists(bad));
  }
}

// A tournament held in 北京 (its location set at creation, in Chinese)
// reaches the EGD and the AGA with --place, refused naming the option
// without it (nothing written); the file verifies with the place it gives,
// the title given too where the tournament's is not ASCII either.
TEST_F(ExportVerify, APlaceGivenAtExportReachesTheRatingFormatsAndVerifies) {
  Record("g1", Created("G1", "李伟", "Wang Ming") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  for (const char* title : {"Beijing Open", "北京公开赛"}) {
    const std::string id = title[0] == 'B' ? "open" : "cn";
    ProcessResult r = Cli({"tournament",
                           "create",
                           "--id",
                           id,
                           "--system",
                           "round-robin",
                           "--title",
                           title,
                           "--player",
                           "A:李,伟:5D",
                           "--romanized",
                           "A:Li,Wei",
                           "--player",
                           "B:Wang,Ming:4D",
                           "--location",
                           "北京棋院, 海淀",
                           "--country",
                           "CN",
                           "--egf-class",
                           "B",
                           "--adjusted-time",
                           "60"});
    ASSERT_EQ(r.exit, 0) << r.err;
    ASSERT_EQ(Cli({"tournament", "pair", id, "--round", "1", "--board", "A,B,G1"}).exit, 0);
  }
  for (const char* format : {"h9", "aga"}) {
    SCOPED_TRACE(format);
    const bool h9 = std::string(format) == "h9";
    const std::string file = dir_.File(absl::StrCat("open.", format));
    ExpectNotExported("open", format, file, "location \"北京棋院, 海淀\" is not ASCII", "--place");

    ProcessResult r = Cli({"tournament", "export", "open", "--format", format, "--out", file,
                           "--place", "Beijing Go Academy, Haidian"});
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_THAT(ReadFile(file), HasSubstr(h9 ? "; PC[CN,Beijing Go Academy, Haidian]\n"
                                             : "TOURNEY Beijing Open, Beijing Go Academy, "
                                               "Haidian\n"));
    for (const ProcessResult& v : {VerifyDb(file), VerifyServer(file)}) {
      EXPECT_EQ(v.exit, 0) << v.out << v.err;
      EXPECT_THAT(v.out, HasSubstr("with the place \"Beijing Go Academy, Haidian\" given at "
                                   "export (tournament export --place"));
    }
    const Edit e = h9 ? EditLine(file, "+/b0", "-/b0") : EditLine(file, "\tB\t", "\tW\t");
    ExpectRefusedAt(VerifyDb(file), e);
    ExpectRefusedAt(VerifyServer(file), e);

    // Title and place both given.
    const std::string both = dir_.File(absl::StrCat("cn.", format));
    r = Cli({"tournament", "export", "cn", "--format", format, "--out", both, "--title",
             "Beijing Open", "--place", "Beijing Go Academy, Haidian"});
    ASSERT_EQ(r.exit, 0) << r.err;
    for (const ProcessResult& v : {VerifyDb(both), VerifyServer(both)}) {
      EXPECT_EQ(v.exit, 0) << v.out << v.err;
      EXPECT_THAT(v.out, HasSubstr("with the title \"Beijing Open\" and the place \"Beijing Go "
                                   "Academy, Haidian\" given at export"));
    }
    const Edit edited = h9 ? EditLine(both, "+/b0", "-/b0") : EditLine(both, "\tB\t", "\tW\t");
    ExpectRefusedAt(VerifyDb(both), edited);
  }
  // A place the format cannot hold, or for another format: bad usage,
  // nothing asked or written.
  const std::string bad = dir_.File("bad.out");
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--format", "h9", "--place", "Hall [A]"},
        {"--format", "aga", "--place", "北京"},
        {"--format", "csv", "--place", "Beijing"}}) {
    std::vector<std::string> args = {"tournament", "export", "open", "--out", bad};
    args.insert(args.end(), flags.begin(), flags.end());
    ProcessResult r = Cli(args);
    EXPECT_EQ(r.exit, 2) << absl::StrJoin(flags, " ") << r.err;
    EXPECT_THAT(r.err, HasSubstr("--place with"));
    EXPECT_FALSE(std::filesystem::exists(bad));
  }
}

// Review item 3: the CSV for a spreadsheet (--for-spreadsheet): a UTF-8
// byte-order mark and formula-leading cells after a quote, read back by
// Python's csv module as Excel's "CSV UTF-8" reads it; it verifies, an edit
// is named, and the default CSV has neither.
TEST_F(ExportVerify, CsvForASpreadsheetVerifies) {
  Record("g1", Created("G1", "李伟", "=SUM(1+2) Ming") +
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  ProcessResult r = Cli({"tournament", "create", "--id", "xl", "--system", "round-robin", "--title",
                         "Cup", "--player", "A:李,伟:5D", "--player", "B:=SUM(1+2),Ming:4D",
                         "--player", "C:@Chen,Jie:1K"});
  ASSERT_EQ(r.exit, 0) << r.err;
  ASSERT_EQ(Cli({"tournament", "pair", "xl", "--round", "1", "--board", "A,B,G1"}).exit, 0);
  const std::string plain = dir_.File("xl.csv");
  const std::string sheet = dir_.File("xl-sheet.csv");
  ASSERT_EQ(Cli({"tournament", "export", "xl", "--format", "csv", "--out", plain}).exit, 0);
  r = Cli({"tournament", "export", "xl", "--format", "csv", "--for-spreadsheet", "--out", sheet});
  ASSERT_EQ(r.exit, 0) << r.err;
  ASSERT_EQ(ReadFile(sheet).substr(0, 3), "\xEF\xBB\xBF");
  EXPECT_NE(ReadFile(plain).substr(0, 3), "\xEF\xBB\xBF");

  r = testing::Run({"/usr/bin/env", "python3",
                    testing::SourcePath("tests/readers/tournament_files.py"), "sheet=" + sheet,
                    "csv=" + plain});
  if (r.exit == 127) GTEST_SKIP() << "no python3: " << r.err;
  ASSERT_EQ(r.exit, 0) << r.err;
  google::protobuf::Struct read;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &read).ok()) << r.out;
  const google::protobuf::Struct& s = read.fields().at("sheet").struct_value();
  EXPECT_TRUE(s.fields().at("bom").bool_value());
  EXPECT_EQ(s.fields().at("formulas").list_value().values_size(), 0) << r.out;
  std::vector<std::string> names;
  for (const auto& row : s.fields().at("rows").list_value().values()) {
    names.push_back(row.list_value().values(2).string_value());
  }
  EXPECT_THAT(names,
              ::testing::UnorderedElementsAre("name", "李伟", "'=SUM(1+2) Ming", "'@Chen Jie"));
  // The default CSV, read the same way, has the formulas as they were.
  const auto& plain_rows = read.fields().at("csv").list_value().values();
  std::vector<std::string> plain_names;
  for (const auto& row : plain_rows)
    plain_names.push_back(row.list_value().values(2).string_value());
  EXPECT_THAT(plain_names,
              ::testing::UnorderedElementsAre("name", "李伟", "=SUM(1+2) Ming", "@Chen Jie"));

  for (const ProcessResult& v : {VerifyDb(sheet), VerifyServer(sheet)}) {
    EXPECT_EQ(v.exit, 0) << v.out << v.err;
    EXPECT_THAT(v.out, HasSubstr("matches"));
    EXPECT_THAT(v.out, HasSubstr("(the CSV for a spreadsheet)"));
  }
  EXPECT_EQ(VerifyDb(plain).exit, 0);
  // A BOM added to the plain CSV by another program is not the spreadsheet
  // CSV here (its formula cells are not quoted): named where it differs.
  const std::string resaved = dir_.File("xl-resaved.csv");
  testing::WriteFile(resaved, "\xEF\xBB\xBF" + ReadFile(plain));
  r = VerifyDb(resaved);
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("differs"));
  const Edit e = EditLine(sheet, ",A,李伟,2,", ",A,李伟,0,");
  ExpectRefusedAt(VerifyDb(sheet), e);
  ExpectRefusedAt(VerifyServer(sheet), e);
}

TEST_F(ExportVerify, AFileOfAnotherLogOrOfNoCheckpointIsRefused) {
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  const std::string file = Export("h9");
  // Another venue's ledger (its own data folder, so its own origin).
  const std::string other = dir_.File("other");
  std::unique_ptr<testing::ServerProcess> venue = testing::ServerProcess::Start(other);
  ASSERT_NE(venue, nullptr);
  testing::WriteFile(dir_.File("o1.jsonl"), Created("O1", "Li", "Wang"));
  ASSERT_EQ(Run({"record", dir_.File("o1.jsonl"), "--server", venue->address()}).exit, 0);
  ProcessResult r = VerifyDb(file, other);
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("not this log's record"));
  EXPECT_THAT(r.out, HasSubstr("is log '"));

  // The words cut from the file: it names no checkpoint.
  const std::string cut = dir_.File("cut.h9");
  std::string text = ReadFile(file);
  const size_t at = text.find("; derived from ");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, text.find('\n', at) + 1 - at);
  testing::WriteFile(cut, text);
  r = VerifyDb(cut);
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("names no record it came from"));
  // A size the log has no checkpoint of.
  const std::string moved = dir_.File("moved.h9");
  testing::WriteFile(moved, ReadFile(file));
  // "; derived from tournaments/cup at checkpoint ORIGIN SIZE ROOT"
  std::vector<std::string> words = absl::StrSplit(ReadFile(file).substr(at), ' ');
  ASSERT_GE(words.size(), 8u);
  EditLine(moved, absl::StrCat("checkpoint ", words[6], " ", words[7], " "),
           absl::StrCat("checkpoint ", words[6], " 999999 "));
  r = VerifyDb(moved);
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("no signed checkpoint of size 999999"));
  r = VerifyServer(moved);
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("no signed checkpoint of tree size 999999"));
}

// The same on a federation's ledger in PostgreSQL: the file verified
// offline against the database, and a changed line named.
TEST_F(ExportVerify, OnAPostgresqlLedgerToo) {
  absl::StatusOr<std::string> uri = testing::SharedPgCluster().NewDatabase();
  ASSERT_TRUE(uri.ok()) << uri.status();
  server_ = testing::ServerProcess::StartShared(*uri, dir_.File("state"));
  ASSERT_NE(server_, nullptr);
  ASSERT_NO_FATAL_FAILURE(SetUpCup());
  const std::string file = Export("h9");
  ProcessResult r = VerifyDb(file, *uri);
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("matches"));
  EXPECT_EQ(VerifyServer(file).exit, 0);
  const Edit e = EditLine(file, "+/b0", "-/b0");
  ExpectRefusedAt(VerifyDb(file, *uri), e);
}

}  // namespace
}  // namespace arbiter
