// Every error a user can cause is one line on stderr, `arbiter COMMAND:
// what, where, why`, naming the flag, the file or the line at fault (issue
// 27.6; cli/complaint.h). Each case runs the built binary as a process and
// checks its exit status, that stderr is exactly one line starting with
// "arbiter COMMAND:", and the words that say what went wrong.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr char kNobody[] = "127.0.0.1:1";  // never listening

// A game with both players, and a line that is not JSON: a comma is missing
// before "gameCreated", whose quote is the line's 31st character.
constexpr char kGoodLine[] =
    "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"one-line\", "
    "\"black\": {\"name\": \"Li Wei\"}, \"white\": {\"name\": \"Wang Fang\"}}}\n";
constexpr char kBadJsonLine[] = "{\"at\": \"2026-05-01T09:00:00Z\" \"gameCreated\": {}}\n";

struct Case {
  std::vector<std::string> args;
  int exit;
  std::string command;             // "record", "tournament import"; "" for the binary
  std::vector<std::string> words;  // each on the line
  std::vector<std::string> not_words = {};
  std::string input = "";
  std::vector<std::pair<std::string, std::string>> env = {};
};

// The exit status, and stderr as one line "arbiter COMMAND: ..." holding
// every word of the case.
void ExpectOneLine(const ProcessResult& r, const Case& c) {
  const std::string context = absl::StrJoin(c.args, " ");
  EXPECT_EQ(r.exit, c.exit) << context << "\n" << r.err;
  const std::string prefix = c.command.empty() ? "arbiter: " : "arbiter " + c.command + ": ";
  EXPECT_TRUE(absl::StartsWith(r.err, prefix)) << context << "\n" << r.err;
  EXPECT_TRUE(absl::EndsWith(r.err, "\n")) << context << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << context << ": not one line\n"
                                                             << r.err;
  for (const std::string& word : c.words) {
    EXPECT_TRUE(absl::StrContains(r.err, word)) << context << ": no '" << word << "'\n" << r.err;
  }
  for (const std::string& word : c.not_words) {
    EXPECT_FALSE(absl::StrContains(r.err, word)) << context << ": '" << word << "'\n" << r.err;
  }
}

class CliErrorsTest : public ::testing::Test {
 protected:
  std::string File(const std::string& name, const std::string& contents) {
    const std::string path = dir_.File(name);
    WriteFile(path, contents);
    return path;
  }
  void Expect(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
      std::vector<std::pair<std::string, std::string>> env = c.env;
      ExpectOneLine(RunCli(c.args, c.input, kNobody, env), c);
    }
  }
  TempDir dir_{"arbiter-cli-errors"};
};

// The cases of issue 27 that need no server (or find none), and the usage
// errors of the parser.
TEST_F(CliErrorsTest, EveryUserErrorIsOneLineNamingItsCause) {
  const std::string bad = File("bad.jsonl", std::string(kGoodLine) + kBadJsonLine);
  const std::string good = File("good.jsonl", kGoodLine);
  // Faults of a hand-written line, in the line's own terms (protobuf's
  // wording named an empty field, a type URL, a proto path).
  const auto line_file = [&](const std::string& name, const std::string& kind) {
    return File(name, std::string(kGoodLine) +
                          absl::StrCat(R"({"at": "2026-05-01T09:00:10Z", )", kind, "}\n"));
  };
  const std::string two_kinds = line_file(
      "two.jsonl", R"("move": {"color": "BLACK", "point": "D4"}, "pass": {"color": "WHITE"})");
  const std::string green =
      line_file("green.jsonl", R"("move": {"color": "GREEN", "point": "D4"})");
  const std::string colour =
      line_file("colour.jsonl", R"("move": {"colour": "BLACK", "point": "D4"})");
  const std::string teleport = line_file("teleport.jsonl", R"("teleport": {})");
  const std::string no_color = line_file("ring.jsonl", R"("phoneRang": {})");
  const std::string venue55 =
      File("venue55.jsonl", R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": "v", )"
                            R"("ruleset": "cn-2002", "boardSize": 19, "venue": 55}})"
                            "\n");
  const std::string nosuch = dir_.File("nosuch");
  const std::string data = dir_.File("data");
  Expect({
      // record: the line and the column of the fault, on one line (it was
      // "line 1:" and the parser's three lines with a lone ^).
      {{"record", bad},
       2,
       "record",
       {"bad.jsonl: line 2: Expected , or } after key:value pair at column 31", "nothing was sent"},
       {"^"}},
      {{"record", "-"}, 2, "record", {"stdin: line 1: ", "at column 31"}, {"^"}, kBadJsonLine},
      {{"adjudicate", bad},
       2,
       "adjudicate",
       {"bad.jsonl: line 2: Expected , or } after key:value pair at column 31"},
       {"^"}},
      {{"adjudicate", two_kinds},
       2,
       "adjudicate",
       {"two.jsonl: line 2: an event holds one kind, and this line gives another ('pass') "
        "besides the first"}},
      {{"adjudicate", green},
       2,
       "adjudicate",
       {"green.jsonl: line 2: move.color: \"GREEN\" is not a value of Color "
        "(COLOR_UNSPECIFIED, BLACK, WHITE)"},
       {"googleapis"}},
      {{"adjudicate", colour},
       2,
       "adjudicate",
       {"colour.jsonl: line 2: move.colour: no such field here"}},
      {{"adjudicate", teleport},
       2,
       "adjudicate",
       {"teleport.jsonl: line 2: teleport: no such field here (an unknown event kind"}},
      {{"adjudicate", no_color},
       2,
       "adjudicate",
       {"ring.jsonl: line 2: phoneRang.color must be BLACK or WHITE"},
       {"PHONE_RANG"}},
      // An enum given as a number its type does not name (JSON allows
      // numbers): refused by its line and field, for either command.
      {{"adjudicate", venue55},
       2,
       "adjudicate",
       {"venue55.jsonl: line 1: gameCreated.venue: 55 is not a value of Venue (VENUE_UNSPECIFIED, "
        "SAME_SITE, SEPARATE_SITE, RAPID)"}},
      {{"record", venue55}, 2, "record", {"venue55.jsonl: line 1: gameCreated.venue: 55"}},
      {{"record", nosuch}, 2, "record", {"nosuch: no such file"}},
      {{"adjudicate", nosuch}, 2, "adjudicate", {"nosuch", "no such file"}},
      // A folder is said to be one (it was "reading failed part way", and
      // adjudicate added "no events").
      {{"record", dir_.path()}, 2, "record", {"a folder, not a file"}, {"part way"}},
      {{"adjudicate", dir_.path()},
       2,
       "adjudicate",
       {"cannot read it: a folder, not a file"},
       {"part way", "no events"}},
      // The ruleset is the flag's fault, not the file's.
      {{"adjudicate", "--ruleset", "cn-2020", good},
       2,
       "adjudicate",
       {"--ruleset cn-2020", "unknown ruleset", "cn-1988", "cn-2002"},
       {"good.jsonl"}},
      {{"adjudicate", "--ruleset", "", good},
       2,
       "adjudicate",
       {"--ruleset: give a ruleset (cn-2002, cn-1988) or leave it out"},
       {"good.jsonl"}},
      {{"verify", "--bundle", nosuch}, 2, "verify", {"--bundle " + nosuch, "no such file"}},
      {{"verify", "--bundle", good}, 2, "verify", {"--bundle " + good, "not an audit bundle"}},
      {{"export", "g", "--db", data, "--bundle", "/nonexistent/x"},
       2,
       "export",
       {"--bundle /nonexistent/x", "the folder /nonexistent does not exist"}},
      {{"export", "g", "--format", "sgf", "--out", "/nonexistent/x.sgf"},
       2,
       "export",
       {"--out /nonexistent/x.sgf", "the folder /nonexistent does not exist"}},
      {{"tournament", "import", "--id", "cup", nosuch},
       2,
       "tournament import",
       {"nosuch: no such file"}},
      // A malformed address is said to be one (it was "no tokens: the
      // server runs open").
      {{"serve", "--db", data, "--listen", "nonsense"},
       2,
       "serve",
       {"--listen 'nonsense'", "malformed address", "HOST:PORT"},
       {"no tokens"}},
      {{"serve", "--db", data, "--listen", "127.0.0.1:70000"},
       2,
       "serve",
       {"--listen '127.0.0.1:70000'", "malformed address", "65535"}},
      {{"serve", "--db", data, "--http", "localhost"},
       2,
       "serve",
       {"--http 'localhost'", "malformed address"}},
      // Unknown flags name the flag and the nearest one, not 30 lines of usage.
      {{"show", "g", "--jsn"}, 2, "show", {"unknown flag --jsn", "did you mean --json?"}},
      {{"serve", "--checkpoint-evry", "5"},
       2,
       "serve",
       {"unknown flag --checkpoint-evry", "did you mean --checkpoint-every?"}},
      {{"record", "-", "--replya"}, 2, "record", {"unknown flag --replya", "--replay?"}},
      {{"show", "g", "--zzzzzz"},
       2,
       "show",
       {"unknown flag --zzzzzz", "`arbiter show --help` lists its flags"}},
      {{"shw", "g"}, 2, "", {"unknown command 'shw'", "did you mean show?"}},
      {{"--verison"}, 2, "", {"unknown flag --verison", "did you mean --version?"}},
      {{"tournament", "standigns", "cup"},
       2,
       "tournament",
       {"unknown subcommand 'standigns'", "did you mean standings?"}},
      {{"rules"}, 2, "rules", {"which subcommand?", "list", "publish"}},
      {{}, 2, "", {"which command?", "arbiter --help"}},
      {{"show"}, 2, "show", {"expects 1 argument (GAME), got 0", "usage: arbiter show GAME"}},
      {{"game", "create", "--id", "g", "--white", "Wang Fang"},
       2,
       "game create",
       {"missing --black"}},
      // A server that is not there: the hint on the same line.
      {{"decide", "g", "1", "LOSS"},
       3,
       "decide",
       {"UNAVAILABLE", "is `arbiter serve` running at 127.0.0.1:1?"}},
      {{"show", "g"}, 3, "show", {"UNAVAILABLE", "--server ADDR"}},
      // $ARBITER_TLS_CA that is not there.
      {{"show", "g"},
       2,
       "",
       {"$ARBITER_TLS_CA " + nosuch, "no such file"},
       {},
       "",
       {{"ARBITER_TLS_CA", nosuch}}},
  });
}

// "an AUDITOR token", not "a AUDITOR token"; the role in any case.
TEST_F(CliErrorsTest, RolesTakeTheirArticle) {
  const std::string data = dir_.File("data");
  const ProcessResult r =
      RunCli({"token", "create", "--role", "auditor", "--name", "Federation", "--db", data});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "created an AUDITOR token for Federation")) << r.err;
  const ProcessResult arbiter = RunCli(
      {"token", "create", "--role", "Arbiter", "--name", "Zhou", "--game", "*", "--db", data});
  EXPECT_TRUE(absl::StrContains(arbiter.err, "created an ARBITER token for Zhou")) << arbiter.err;
  const ProcessResult chief =
      RunCli({"token", "create", "--role", "chief-arbiter", "--name", "Wang", "--db", data});
  EXPECT_TRUE(absl::StrContains(chief.err, "created a CHIEF_ARBITER token for Wang")) << chief.err;
}

// `arbiter --version`: the project's version from CMake (and git describe
// of the source when it was configured), exit 0.
TEST_F(CliErrorsTest, VersionNamesTheProjectVersion) {
  const ProcessResult r = RunCli({"--version"});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(absl::StartsWith(r.out, absl::StrCat("arbiter ", ARBITER_PROJECT_VERSION))) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(absl::StrContains(RunCli({"--help"}).out, "--version"));
}

// The errors a server answers, against one with tokens.
class CliErrorsServerTest : public CliErrorsTest {
 protected:
  void SetUp() override {
    chief_ = CreateToken(dir_.File("data"), "CHIEF_ARBITER", "Wang Ru");
    auditor_ = CreateTokenOf("AUDITOR", "Federation");
    server_ = ServerProcess::Start(dir_.File("data"));
    ASSERT_NE(server_, nullptr);
  }
  std::string CreateTokenOf(const std::string& role, const std::string& name) {
    const ProcessResult r =
        RunCli({"token", "create", "--role", role, "--name", name, "--db", dir_.File("data")});
    EXPECT_EQ(r.exit, 0) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }
  void Expect(const std::vector<Case>& cases) {
    for (const Case& c : cases)
      ExpectOneLine(RunCli(c.args, c.input, server_->address(), c.env), c);
  }
  std::string chief_;
  std::string auditor_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(CliErrorsServerTest, RefusalsAreOneLine) {
  const std::string good = File("good.jsonl", kGoodLine);
  // A line the checks pass and the server refuses: the line and the reason
  // together (it was "line 1:" and the reason on the next line).
  const std::string orphan =
      File("orphan.jsonl",
           "{\"at\": \"2026-05-01T09:00:00Z\", \"phoneRang\": {\"color\": \"BLACK\"}}\n");
  Expect({
      {{"record", orphan, "--game", "nobody"},
       2,
       "record",
       {"orphan.jsonl: line 1: ", "NOT_FOUND"},
       {},
       "",
       {{"ARBITER_TOKEN", chief_}}},
      // No token: the hint on the same line.
      {{"show", "one-line"}, 4, "show", {"UNAUTHENTICATED", "$ARBITER_TOKEN"}},
      // The role with its article.
      {{"record", good},
       4,
       "record",
       {"good.jsonl: line 1: ", "PERMISSION_DENIED", "an AUDITOR token may not"},
       {"a AUDITOR"},
       "",
       {{"ARBITER_TOKEN", auditor_}}},
      {{"game", "create", "--id", "g", "--black", "B", "--white", "W"},
       4,
       "game create",
       {"an AUDITOR token may not call CreateGame"},
       {},
       "",
       {{"ARBITER_TOKEN", auditor_}}},
  });
}

}  // namespace
}  // namespace arbiter::testing
