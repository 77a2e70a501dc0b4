// Every client command of the `arbiter` binary against a real server, with
// its readable and --json output and its exit codes (cli/commands.h).
#include <regex>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "adjudicator/engine/sgf.h"
#include "adjudicator/service/game_exports.h"
#include "google/protobuf/struct.pb.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

std::string Server() { return ServerEnvironment::address(); }

ProcessResult Cli(const std::vector<std::string>& args, const std::string& input = "") {
  return RunCli(args, input, Server());
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out = absl::StrSplit(text, '\n', absl::SkipEmpty());
  return out;
}

google::protobuf::Struct Json(const std::string& line) {
  google::protobuf::Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(line, &s).ok()) << line;
  return s;
}

// A scenario's lines with its game renamed, so each test has its own game.
std::string Renamed(const std::string& scenario, const std::string& id) {
  std::string text = ReadFile(Scenario(scenario));
  const std::string from = "\"gameId\": \"" + scenario + "\"";
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  return text.replace(at, from.size(), "\"gameId\": \"" + id + "\"");
}

TEST(CliTest, Health) {
  ProcessResult r = Cli({"health"});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("SERVING"), std::string::npos);
  r = Cli({"health", "--json"});
  EXPECT_EQ(Json(r.out).fields().at("status").string_value(), "SERVING");
  // The global flag before the command, and an unreachable server (exit 3).
  r = RunCli({"--server", Server(), "health"});
  EXPECT_EQ(r.exit, 0) << r.err;
  r = RunCli({"health", "--server", "127.0.0.1:1"});
  EXPECT_EQ(r.exit, 3);
  EXPECT_NE(r.err.find("UNAVAILABLE"), std::string::npos);
}

// --help answers with the usage on stdout and exit 0, without calling the
// server (127.0.0.1:1 is never listening).
TEST(CliTest, HelpPrintsUsageWithoutCallingTheServer) {
  for (const char* command : {"health", "game", "record", "history", "show", "watch", "decide"}) {
    const ProcessResult r = RunCli({command, "--help", "--server", "127.0.0.1:1"});
    EXPECT_EQ(r.exit, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out.rfind("usage: arbiter ", 0), 0u) << command << ": " << r.out;
  }
}

TEST(CliTest, GameCreate) {
  ProcessResult r = Cli({"game", "create", "--id", "cli-created", "--black", "Li Wei,5d", "--white",
                         "Wang Fang,4d", "--main-time", "1h", "--byo-yomi", "5/60s", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  google::protobuf::Struct game = Json(r.out);
  EXPECT_EQ(game.fields().at("gameId").string_value(), "cli-created");
  EXPECT_EQ(game.fields()
                .at("created")
                .struct_value()
                .fields()
                .at("black")
                .struct_value()
                .fields()
                .at("rank")
                .string_value(),
            "5d");
  r = Cli({"game", "create", "--id", "cli-created", "--black", "B", "--white", "W"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("ALREADY_EXISTS"), std::string::npos);
  EXPECT_EQ(Cli({"game", "create", "--black", "B", "--white", "W", "--byo-yomi", "five"}).exit, 2);
  EXPECT_EQ(Cli({"game"}).exit, 2);
}

TEST(CliTest, RecordAcknowledgesEachEventAndRetriesSafely) {
  const std::string lines = Renamed("phone-twice", "cli-rec");
  ProcessResult r = Cli({"record", "-", "--json"}, lines);
  ASSERT_EQ(r.exit, 0) << r.err;
  std::vector<std::string> acks = Lines(r.out);
  ASSERT_EQ(acks.size(), 8u);
  std::vector<double> positions;
  for (size_t i = 0; i < acks.size(); ++i) {
    google::protobuf::Struct ack = Json(acks[i]);
    EXPECT_EQ(ack.fields().at("gameId").string_value(), "cli-rec");
    EXPECT_EQ(ack.fields().at("revision").number_value(), i + 1.0);
    positions.push_back(ack.fields().at("position").number_value());
  }
  EXPECT_EQ(Json(acks[4]).fields().at("rulings").list_value().values_size(), 1);
  // The same file again (as after a lost connection): the same positions,
  // nothing recorded twice.
  r = Cli({"record", "-", "--json"}, lines);
  ASSERT_EQ(r.exit, 0) << r.err;
  acks = Lines(r.out);
  ASSERT_EQ(acks.size(), 8u);
  for (size_t i = 0; i < acks.size(); ++i) {
    EXPECT_EQ(Json(acks[i]).fields().at("position").number_value(), positions[i]);
  }
  // Readable output names each ruling's clause.
  r = Cli({"record", "-"}, Renamed("phone-twice", "cli-rec-2"));
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("cn-2002/23.7"), std::string::npos);
  EXPECT_NE(r.out.find("recorded 8 event(s)"), std::string::npos);
}

TEST(CliTest, RecordRefusesBadLines) {
  // --game names the game of a file with no gameCreated.
  ProcessResult r = Cli({"record", "-", "--game", "cli-none"},
                        "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("NOT_FOUND"), std::string::npos);
  r = Cli({"record", "-"}, "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("line 1"), std::string::npos);
  std::string lines = Renamed("double-move", "cli-bad");
  lines +=
      "{\"at\": \"2026-05-01T09:59:00Z\", \"move\": {\"color\": \"BLACK\", \"point\": \"Z99\"}}\n";
  r = Cli({"record", "-"}, lines);
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("INVALID_ARGUMENT"), std::string::npos);
  r = Cli({"record", "-"}, "not json\n");
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(Cli({"record", "/no/such/file"}).exit, 2);
}

TEST(CliTest, HistoryShowWatchDecideExportVerify) {
  ASSERT_EQ(Cli({"record", "-"}, Renamed("phone-twice", "cli-hist")).exit, 0);

  ProcessResult r = Cli({"history", "cli-hist", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  google::protobuf::Struct history = Json(r.out);
  EXPECT_EQ(history.fields().at("events").list_value().values_size(), 8);
  const auto& rulings = history.fields().at("rulings").list_value();
  ASSERT_EQ(rulings.values_size(), 2);
  EXPECT_FALSE(rulings.values(0).struct_value().fields().at("textZh").string_value().empty());
  EXPECT_FALSE(rulings.values(0).struct_value().fields().at("textEn").string_value().empty());
  EXPECT_EQ(history.fields().at("result").struct_value().fields().at("sgf").string_value(), "W+F");
  r = Cli({"history", "games/cli-hist"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("ruling history (2)"), std::string::npos);
  EXPECT_NE(r.out.find("zh: "), std::string::npos);
  EXPECT_NE(r.out.find("en: "), std::string::npos);
  EXPECT_NE(r.out.find("RE[W+F]"), std::string::npos);
  // Each ruling's time says it is the ledger's UTC ("#1  event 4  2026-... UTC  cn-2002/...").
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(#1  event \d+  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC  cn-2002/)")))
      << r.out;
  EXPECT_EQ(Cli({"history", "cli-nobody"}).exit, 2);

  r = Cli({"show", "cli-hist"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("A B C D E F G H J K L M N O P Q R S T"), std::string::npos);
  EXPECT_NE(r.out.find("warnings: Black 1, White 0"), std::string::npos);
  EXPECT_NE(r.out.find("clocks: Black main"), std::string::npos);
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(R"(as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, move)")))
      << r.out;
  r = Cli({"show", "cli-hist", "--json"});
  ASSERT_EQ(r.exit, 0);
  EXPECT_EQ(Json(r.out).fields().at("revision").string_value(), "8");
  EXPECT_EQ(Cli({"show"}).exit, 2);

  r = Cli({"watch", "cli-hist", "--until-caught-up", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  std::vector<std::string> msgs = Lines(r.out);
  ASSERT_EQ(msgs.size(), 9u);
  EXPECT_TRUE(Json(msgs.back()).fields().contains("caughtUp"));
  r = Cli({"watch", "cli-hist", "--after", "6", "--until-caught-up"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 2u + 4u);  // events 7, 8 (+ ruling lines for 8), caught up
  EXPECT_NE(r.out.find("rev 7"), std::string::npos);
  EXPECT_EQ(r.out.find("rev 6"), std::string::npos);
  r = Cli({"watch", "--all", "--until-caught-up"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("games/cli-hist rev 8"), std::string::npos);

  r = Cli({"export", "cli-hist", "--format", "sgf"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StartsWith(r.out, "(;FF[4]"));
  EXPECT_TRUE(ParseSgf(r.out).ok());
  EXPECT_NE(r.out.find("RE[W+F]"), std::string::npos);
  r = Cli({"export", "cli-hist", "--format", "json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(Json(r.out).fields().at("events").list_value().values_size(), 8);
  const TempDir temp("arbiter-cli-export");
  const std::string& dir = temp.path();
  r = Cli({"export", "cli-hist", "--format", "bundle", "--out", dir + "/g.bundle"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = RunCli({"verify", "--bundle", dir + "/g.bundle"});  // offline: no server
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(Cli({"export", "cli-hist", "--format", "bundle"}).exit, 2);  // binary needs --out
  EXPECT_EQ(Cli({"export", "cli-hist", "--format", "pdf"}).exit, 2);

  r = Cli({"verify", "cli-hist"});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("intact"), std::string::npos);
  r = Cli({"verify", "cli-hist", "--json"});
  EXPECT_TRUE(Json(r.out).fields().at("intact").bool_value());
  EXPECT_EQ(Cli({"verify", "cli-nobody"}).exit, 2);
}

TEST(CliTest, ExportedSgfReimportsForEveryScenario) {
  // `arbiter import-sgf` replays the record under the rules of play: an
  // exported SGF with a void move on the board, or a wrong RE, would fail.
  const TempDir temp("arbiter-cli-sgf");
  const std::string& dir = temp.path();
  for (const char* name :
       {"byoyomi-timeout", "count-185", "double-move", "ko-retake", "late-within", "phone-twice"}) {
    SCOPED_TRACE(name);
    const std::string id = std::string("cli-sgf-") + name;
    ASSERT_EQ(Cli({"record", "-"}, Renamed(name, id)).exit, 0);
    const std::string path = dir + "/" + id + ".sgf";
    ProcessResult r = Cli({"export", id, "--format", "sgf", "--out", path});
    ASSERT_EQ(r.exit, 0) << r.err;
    r = RunCli({"import-sgf", path});
    EXPECT_EQ(r.exit, 0) << r.err << ReadFile(path);
  }
}

// `arbiter export --format` takes every row of the game export table
// (game_exports.h) by its name and writes the file the server serves as
// that row says; its help and errors list the rows.
TEST(CliTest, EveryGameExportFormatIsTheTablesRow) {
  ASSERT_EQ(Cli({"record", "-"}, Renamed("phone-twice", "cli-formats")).exit, 0);
  const TempDir temp("arbiter-cli-formats");
  for (const service::GameExportFormat& f : service::GameExportFormats()) {
    SCOPED_TRACE(std::string(f.name));
    const std::string path = temp.path() + "/g" + std::string(f.extension);
    ProcessResult r =
        Cli({"export", "cli-formats", "--format", std::string(f.name), "--out", path});
    ASSERT_EQ(r.exit, 0) << r.err;
    EXPECT_NE(r.err.find(std::string(f.content_type)), std::string::npos) << r.err;
    EXPECT_FALSE(ReadFile(path).empty());
    if (f.binary) {
      r = Cli({"export", "cli-formats", "--format", std::string(f.name)});
      EXPECT_EQ(r.exit, 2);
      EXPECT_NE(r.err.find("is binary: give --out FILE"), std::string::npos) << r.err;
    }
  }
  ProcessResult r = Cli({"export", "cli-formats", "--format", "pdf"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("--format 'pdf': sgf (rulings as comments), json or bundle"),
            std::string::npos)
      << r.err;
  r = RunCli({"export", "--help"});
  EXPECT_NE(r.out.find("from a server: sgf (rulings as comments), json or bundle"),
            std::string::npos)
      << r.out;
}

TEST(CliTest, DecideAPendingRuling) {
  std::string lines =
      "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"cli-decide\", "
      "\"boardSize\": 19, \"venue\": \"SAME_SITE\", \"scheduledStart\": "
      "\"2026-05-01T09:00:00Z\"}}\n"
      "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n"
      "{\"at\": \"2026-05-01T09:00:30Z\", \"misconduct\": {\"color\": \"WHITE\", \"kind\": "
      "\"TALK\"}}\n";
  ASSERT_EQ(Cli({"record", "-"}, lines).exit, 0);
  ProcessResult r = Cli({"show", "cli-decide"});
  EXPECT_NE(r.out.find("PENDING"), std::string::npos);
  r = Cli({"decide", "cli-decide", "1", "BANISH", "--at", "2026-05-01T09:01:00Z"});
  EXPECT_EQ(r.exit, 2);
  r = Cli({"decide", "cli-decide", "1", "LOSS", "--at", "2026-05-01T09:01:00Z", "--note",
           "talked twice"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("decision recorded at revision 4"), std::string::npos);
  r = Cli({"show", "cli-decide", "--json"});
  EXPECT_EQ(Json(r.out).fields().at("result").struct_value().fields().at("outcome").string_value(),
            "BLACK_WINS");
  EXPECT_EQ(Cli({"decide", "cli-decide", "x", "LOSS"}).exit, 2);
}

}  // namespace
}  // namespace arbiter::testing
