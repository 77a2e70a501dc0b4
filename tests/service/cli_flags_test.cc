// The command line of every `arbiter` command from the outside, through the
// binary: --help of each command and subcommand exits 0 and lists the exit
// codes; bad usage exits 2 with a message naming what was wrong; and a
// failed call's exit status: 3 when the server is not there or limits the
// caller's rate, 4 when the call is not permitted, 2 when the server
// refuses a value as too large (cli/exit_codes.h).
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr char kNobody[] = "127.0.0.1:1";  // never listening

std::string Joined(const std::vector<std::string>& args) { return absl::StrJoin(args, " "); }

// Every command and subcommand of the binary.
const std::vector<std::vector<std::string>>& EveryCommand() {
  static const auto* const commands = new std::vector<std::vector<std::string>>{
      {"adjudicate"},
      {"import-sgf"},
      {"verify"},
      {"export"},
      {"sync"},
      {"serve"},
      {"health"},
      {"record"},
      {"history"},
      {"show"},
      {"watch"},
      {"decide"},
      {"rules"},
      {"rules", "list"},
      {"rules", "show"},
      {"rules", "diff"},
      {"rules", "hash"},
      {"rules", "publish"},
      {"token"},
      {"token", "create"},
      {"token", "revoke"},
      {"token", "list"},
      {"game"},
      {"game", "create"},
      {"tournament"},
      {"tournament", "create"},
      {"tournament", "import"},
      {"tournament", "player"},
      {"tournament", "pair"},
      {"tournament", "replay"},
      {"tournament", "withdraw"},
      {"tournament", "tiebreak"},
      {"tournament", "show"},
      {"tournament", "standings"},
      {"tournament", "export"},
  };
  return *commands;
}

void ExpectExitCodesListed(const std::string& text, const std::string& context) {
  EXPECT_NE(text.find("exit status:"), std::string::npos) << context << "\n" << text;
  for (const char* line : {"  0  success", "  1  a negative answer", "  2  bad input or usage",
                           "  3  the server or the storage is unavailable", "  4  not permitted"}) {
    EXPECT_NE(text.find(line), std::string::npos) << context << ": no '" << line << "'\n" << text;
  }
}

TEST(CliFlagsTest, HelpOfEveryCommandExits0AndListsTheExitCodes) {
  for (std::vector<std::string> args : EveryCommand()) {
    for (const char* help : {"--help", "-h"}) {
      std::vector<std::string> with_help = args;
      with_help.push_back(help);
      const ProcessResult r = RunCli(with_help, "", kNobody);
      const std::string context = Joined(with_help);
      EXPECT_EQ(r.exit, 0) << context << ": " << r.err;
      EXPECT_EQ(r.out.rfind("usage: arbiter " + args[0], 0), 0u) << context << ": " << r.out;
      ExpectExitCodesListed(r.out, context);
    }
  }
  const ProcessResult top = RunCli({"--help"});
  EXPECT_EQ(top.exit, 0);
  ExpectExitCodesListed(top.out, "arbiter --help");
}

// The usage shows the flags each command declares, and help wins over a
// bad flag given with it.
TEST(CliFlagsTest, HelpShowsTheDeclaredFlags) {
  ProcessResult r = RunCli({"tournament", "pair", "--help"});
  EXPECT_NE(r.out.find("--round N"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--board BLACK,WHITE[,GAME[,HANDICAP]]..."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--server ADDR"), std::string::npos) << r.out;
  r = RunCli({"adjudicate", "--bogus", "--help"});
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_NE(r.out.find("--ruleset ID"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gameCreated"), std::string::npos) << "adjudicate says where games split";
  r = RunCli({"rules", "--help"});
  for (const char* sub :
       {"rules list", "rules show", "rules diff", "rules hash", "rules publish"}) {
    EXPECT_NE(r.out.find(sub), std::string::npos) << sub << "\n" << r.out;
  }
}

struct BadUsage {
  std::vector<std::string> args;
  std::string says;  // on stderr
};

TEST(CliFlagsTest, BadUsageExits2WithAMessageNamingIt) {
  const std::vector<BadUsage> cases = {
      {{}, "which command?"},
      {{"nosuch"}, "unknown command 'nosuch'"},
      {{"--server"}, "--server needs a value"},
      {{"show"}, "expects 1 argument (GAME), got 0"},
      {{"show", "a", "b"}, "got 2: 'b'"},
      {{"show", "g", "--bogus"}, "unknown flag --bogus"},
      {{"health", "-x"}, "unknown flag -x"},
      {{"show", "g", "--server"}, "--server needs a value (ADDR)"},
      {{"show", "g", "--server", "--json"}, "--server needs a value (ADDR)"},
      {{"show", "g", "--json=yes"}, "--json takes no value"},
      {{"adjudicate", "--ruleset", "cn-2002", "--ruleset=cn-1988", "f"},
       "--ruleset is given twice"},
      {{"adjudicate", "f", "--ruleset"}, "--ruleset needs a value (ID[@VERSION])"},
      {{"adjudicate"}, "expects at least 1 argument"},
      {{"adjudicate", "-", "-"}, "stdin (-) can be read only once"},
      {{"import-sgf", "a.sgf", "b.sgf", "--game", "x"}, "--game names one game"},
      {{"game", "create", "--black", "B", "--white", "W", "--board-size", "big"},
       "--board-size 'big': a whole number"},
      {{"game", "create", "--black", "B", "--white", "W", "--venue", "GARDEN"}, "--venue"},
      {{"game", "create", "--black", "B", "--white", "W", "--table", "0"},
       "--table: a number from 1 to 9999"},
      {{"game", "create", "--black", "B", "--white", "W", "--table", "x"},
       "--table 'x': a whole number"},
      {{"game", "destroy"}, "unknown subcommand 'destroy'"},
      {{"rules"}, "which subcommand?"},
      {{"rules", "show", "cn-2002/23.7", "--ruleset", "cn-2002"}, "unknown flag --ruleset"},
      {{"token", "create", "--name", "x"}, "missing --role ROLE"},
      {{"sync", "--from", "venue-data"}, "missing --to URI"},
      {{"sync", "--from", "venue-data", "--to", "127.0.0.1:50051", "--state", "federation"},
       "--state is for a postgresql:// --to"},
      {{"token", "list", "--ttl", "1h"}, "unknown flag --ttl"},
      {{"decide", "g", "first", "LOSS"}, "RULING 'first'"},
      {{"watch", "g", "--after", "-1"}, "--after '-1'"},
      {{"watch", "g", "--all"}, "--all takes no GAME"},
      {{"verify", "--db", "x", "--bundle", "y"}, "--db or --bundle, not both"},
      {{"verify", "g", "--pubkey", "k"}, "--pubkey is for --db or --bundle"},
      {{"export", "g", "--db", "x"}, "give both --db PATH and --bundle FILE"},
      {{"export", "g", "--format", "pdf"}, "--format 'pdf'"},
      {{"serve", "--write-rate", "-3"}, "--write-rate"},
      {{"serve", "--recorders-per-caller", "0"}, "--recorders, --recorders-per-caller: at least 1"},
      {{"serve", "--http-feeds-per-caller", "0"},
       "--http-feeds, --http-feeds-per-caller: at least 1"},
      {{"tournament", "pair", "cup", "--round", "0"}, "--round: 1 or more"},
      {{"tournament", "create", "--system", "swiss"}, "missing --id ID"},
      {{"tournament", "tiebreak", "cup", "--order", "A,B"}, "--lots or --extra-game"},
  };
  for (const BadUsage& c : cases) {
    const ProcessResult r = RunCli(c.args, "", kNobody);
    const std::string context = Joined(c.args);
    EXPECT_EQ(r.exit, 2) << context << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << context << ": " << r.err;
    EXPECT_EQ(r.err.rfind("arbiter", 0), 0u) << context << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << context << ": " << r.out;
  }
}

// --flag VALUE and --flag=VALUE are the same; "--" ends the flags.
TEST(CliFlagsTest, BothFlagFormsAndTheEndOfFlags) {
  const std::string game = TestDataPath("scenarios/public/double-move.jsonl");
  const ProcessResult spaced = RunCli({"adjudicate", "--ruleset", "cn-1988", "--json", game});
  const ProcessResult joined = RunCli({"adjudicate", "--ruleset=cn-1988", "--json", "--", game});
  ASSERT_EQ(spaced.exit, 0) << spaced.err;
  EXPECT_EQ(joined.exit, 0) << joined.err;
  EXPECT_EQ(joined.out, spaced.out);
  EXPECT_NE(spaced.out.find("\"ruleset\":\"cn-1988\""), std::string::npos) << spaced.out;
}

// 127.0.0.1:1 is never listening: every client command exits 3, naming
// UNAVAILABLE, whichever way the server is given.
TEST(CliFlagsTest, AServerThatIsNotThereExits3) {
  const std::vector<std::vector<std::string>> calls = {
      {"health"},
      {"show", "g"},
      {"history", "g"},
      {"watch", "g"},
      {"decide", "g", "1", "LOSS"},
      {"verify", "g"},
      {"export", "g", "--format", "sgf"},
      {"game", "create", "--id", "g", "--black", "B", "--white", "W"},
      {"tournament", "show", "cup"},
      {"tournament", "standings", "cup"},
  };
  for (std::vector<std::string> args : calls) {
    const std::string context = Joined(args);
    args.push_back("--server");
    args.push_back(kNobody);
    ProcessResult r = RunCli(args);
    EXPECT_EQ(r.exit, 3) << context << ": " << r.err;
    EXPECT_NE(r.err.find("UNAVAILABLE"), std::string::npos) << context << ": " << r.err;
  }
  ProcessResult r = RunCli({"--server=" + std::string(kNobody), "show", "g"});
  EXPECT_EQ(r.exit, 3) << r.err;
  r = RunCli({"show", "g"}, "", kNobody);  // $ARBITER_SERVER
  EXPECT_EQ(r.exit, 3) << r.err;
  r = RunCli({"record", "-"},
             "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"g\"}}\n", kNobody);
  EXPECT_EQ(r.exit, 3) << r.err;
}

class CliFlagsServerTest : public ::testing::Test {
 protected:
  void TearDown() override { server_.reset(); }
  void Start(const std::vector<std::string>& flags = {}) {
    server_ = ServerProcess::Start(data(), flags);
    ASSERT_NE(server_, nullptr);
  }
  std::string data() const { return dir_.File("data"); }
  // `arbiter token create`: the secret.
  std::string Token(const std::string& role, const std::string& name,
                    const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"token",  "create", "--role", role,
                                     "--name", name,     "--db",   data()};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessResult r = RunCli(args);
    EXPECT_EQ(r.exit, 0) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }
  ProcessResult As(const std::string& token, const std::vector<std::string>& args,
                   const std::string& input = "") {
    std::vector<std::pair<std::string, std::string>> env;
    if (!token.empty()) env.emplace_back("ARBITER_TOKEN", token);
    return RunCli(args, input, server_->address(), env);
  }

  TempDir dir_{"arbiter-cli-flags"};
  std::unique_ptr<ServerProcess> server_;
};

// Once a token exists, a call with none (UNAUTHENTICATED) and a call the
// token's role may not make (PERMISSION_DENIED) both exit 4.
TEST_F(CliFlagsServerTest, NotPermittedExits4) {
  Start();
  const std::string software = Token("SOFTWARE", "broadcast");
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  // The table in the hall travels in the gameCreated (--table).
  const ProcessResult created = As(chief, {"game", "create", "--id", "perm", "--table", "12",
                                           "--json", "--black", "B", "--white", "W"});
  ASSERT_EQ(created.exit, 0) << created.err;
  EXPECT_TRUE(created.out.find("\"table\":12") != std::string::npos ||
              created.out.find("\"table\": 12") != std::string::npos)
      << created.out;

  ProcessResult r = As("", {"show", "perm"});
  EXPECT_EQ(r.exit, 4) << r.err;
  EXPECT_NE(r.err.find("UNAUTHENTICATED"), std::string::npos) << r.err;
  r = As("not-a-token", {"history", "perm"});
  EXPECT_EQ(r.exit, 4) << r.err;
  EXPECT_NE(r.err.find("UNAUTHENTICATED"), std::string::npos) << r.err;

  r = As(software, {"game", "create", "--id", "perm-2", "--black", "B", "--white", "W"});
  EXPECT_EQ(r.exit, 4) << r.err;
  EXPECT_NE(r.err.find("PERMISSION_DENIED"), std::string::npos) << r.err;
  r = As(software, {"tournament", "create", "--id", "cup", "--system", "swiss"});
  EXPECT_EQ(r.exit, 4) << r.err;
  EXPECT_NE(r.err.find("PERMISSION_DENIED"), std::string::npos) << r.err;
  // What the role may do still succeeds, and a missing game is still 2.
  EXPECT_EQ(As(software, {"show", "perm"}).exit, 0);
  EXPECT_EQ(As(software, {"show", "nobody"}).exit, 2);
}

// gRPC refuses a message over the server's 4 MiB limit with
// RESOURCE_EXHAUSTED "Received message larger than max": the value is too
// large, which is bad input (2), unlike a rate limit (3, below).
TEST_F(CliFlagsServerTest, AValueTheServerRefusesAsTooLargeExits2) {
  Start();
  const std::string huge(5 << 20, 'x');
  const std::string line =
      "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"big\", "
      "\"black\": {\"name\": \"" +
      huge + "\"}}}\n";
  // `record` checks the service's bounds before it sends (the service README's
  // "Bounds"): the same exit, the field named.
  ProcessResult r = As("", {"record", "-"}, line);
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_NE(r.err.find("event.gameCreated.black.name: 5242880 bytes, at most 256"),
            std::string::npos)
      << r.err;

  const std::string xml = dir_.File("huge.xml");
  WriteFile(xml, absl::StrCat("<Tournament>", huge, "</Tournament>"));
  r = As("", {"tournament", "import", "--id", "big", xml});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_NE(r.err.find("larger than max"), std::string::npos) << r.err;
}

// A caller over its rate is refused with RESOURCE_EXHAUSTED "rate limit:":
// the server is unavailable to it for now (3), not bad input. A rate this
// slow still has a burst of one call (twice the rate would be none ever):
// the first call is answered (the game is not there), the next is refused
// with its wait, a thousand seconds at most.
TEST_F(CliFlagsServerTest, ARateLimitExits3) {
  Start({"--read-rate", "0.001"});
  ProcessResult r = As("", {"show", "g"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_NE(r.err.find("NOT_FOUND"), std::string::npos) << r.err;
  r = As("", {"show", "g"});
  EXPECT_EQ(r.exit, 3) << r.err;
  EXPECT_NE(r.err.find("RESOURCE_EXHAUSTED: rate limit: at most 0.001 reads per second; the next "
                       "is allowed in "),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace arbiter::testing
