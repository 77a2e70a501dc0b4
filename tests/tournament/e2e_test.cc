// End to end through a real `arbiter serve`: games recorded and adjudicated
// by the service, a tournament whose pairings name them, standings and an
// OpenGotha export (with its reasons sidecar) read back by import.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/v1/tournament.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace {

using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CliRun {
  int exit = -1;
  std::string out;
  std::string err;
};

class E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (std::filesystem::temp_directory_path() / "tournament-e2e-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const std::string log = dir_ + "/serve.log";
    server_ = fork();
    if (server_ == 0) {
      dup2(out[1], 1);
      int err = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(err, 2);
      const std::string db = dir_ + "/data";
      execl(ARBITER_BIN, ARBITER_BIN, "serve", "--db", db.c_str(), "--listen", "127.0.0.1:0", nullptr);
      _exit(127);
    }
    close(out[1]);
    FILE* f = fdopen(out[0], "r");
    char line[256] = {0};
    ASSERT_NE(std::fgets(line, sizeof line, f), nullptr) << "arbiter serve did not start: " << Slurp(log);
    std::fclose(f);
    std::string text = line;
    ASSERT_EQ(text.rfind("listening on ", 0), 0u) << text;
    address_ = text.substr(13, text.find_first_of(" \n", 13) - 13);
  }

  void TearDown() override {
    if (server_ > 0) {
      kill(server_, SIGTERM);
      int status = 0;
      waitpid(server_, &status, 0);
    }
    std::filesystem::remove_all(dir_);
  }

  // `arbiter ARGS... --server ADDR`, stdin from `input_file` if any, with
  // $ARBITER_TOKEN set to `token` if any.
  CliRun Cli(std::vector<std::string> args, const std::string& input_file = "",
             const std::string& token = "") {
    args.push_back("--server");
    args.push_back(address_);
    return Run(std::move(args), input_file, token);
  }

  // `arbiter token create --role ROLE --name NAME --db <the server's>`: the
  // secret.
  std::string Token(const std::string& role, const std::string& name) {
    CliRun r = Run({"token", "create", "--role", role, "--name", name, "--db", dir_ + "/data"});
    EXPECT_EQ(r.exit, 0) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }

  CliRun Run(std::vector<std::string> args, const std::string& input_file = "",
             const std::string& token = "") {
    args.insert(args.begin(), ARBITER_BIN);
    const std::string out = dir_ + "/cli.out", err = dir_ + "/cli.err";
    pid_t pid = fork();
    if (pid == 0) {
      int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(o, 1);
      dup2(e, 2);
      if (!input_file.empty()) dup2(open(input_file.c_str(), O_RDONLY), 0);
      if (token.empty()) {
        unsetenv("ARBITER_TOKEN");
      } else {
        setenv("ARBITER_TOKEN", token.c_str(), 1);
      }
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(out), Slurp(err)};
  }

  void Record(const std::string& name, const std::string& lines) {
    const std::string path = dir_ + "/" + name + ".jsonl";
    std::ofstream(path) << lines;
    CliRun r = Cli({"record", path});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  std::string dir_;
  std::string address_;
  pid_t server_ = 0;
};

std::string Created(const std::string& id, const std::string& black, const std::string& white) {
  return "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"" + id +
         "\", \"ruleset\": \"cn-2002\", \"boardSize\": 19, \"black\": {\"name\": \"" + black +
         "\"}, \"white\": {\"name\": \"" + white +
         "\"}, \"venue\": \"SAME_SITE\", \"scheduledStart\": \"2026-05-01T09:00:00Z\"}}\n"
         "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n"
         "{\"at\": \"2026-05-01T09:00:10Z\", \"move\": {\"color\": \"BLACK\", \"point\": \"Q16\"}}\n";
}

TEST_F(E2E, StandingsAndExportFromAdjudicatedGames) {
  // G1: Wang's (White) phone rings (a warning), then Wang resigns: Li wins.
  Record("g1", Created("G1", "Li", "Wang") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneRang\": {\"color\": \"WHITE\"}}\n"
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  // G2: Chen (Black) looks at a phone: art. 23.7, Chen loses.
  Record("g2", Created("G2", "Chen", "Zhou") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneViewed\": {\"color\": \"BLACK\"}}\n");

  CliRun r = Cli({"tournament", "create", "--id", "cup", "--system", "round-robin", "--title", "Spring Cup",
               "--player", "A:Li:5D", "--player", "B:Wang:4D", "--player", "C:Chen", "--player", "D:Zhou"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "A,B,G1", "--board", "C,D,G2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "A,C,G9"});
  EXPECT_EQ(r.exit, 2);  // round 1 is paired already
  EXPECT_THAT(r.err, HasSubstr("already paired"));

  r = Cli({"tournament", "standings", "cup", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  arbiter::v1::StandingsReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &report).ok()) << r.out;
  // A and D won (2 each); B has the warning, so B is below C on B (fewer warnings).
  ASSERT_EQ(report.standings_size(), 4);
  EXPECT_EQ(report.standings(0).points(), 2);
  EXPECT_EQ(report.standings(1).points(), 2);
  EXPECT_EQ(report.standings(2).id(), "C");
  EXPECT_EQ(report.standings(3).id(), "B");
  EXPECT_EQ(report.standings(3).warnings(), 1);
  EXPECT_EQ(report.pairings(1).clause(), "cn-2002/23.7");

  // The CLI gives no first names yet, and OpenGotha requires one: the
  // export says so rather than write a file OpenGotha cannot open. EGD
  // needs the EGF class and adjusted time, which `create` cannot give yet.
  const std::string xml = dir_ + "/cup.xml";
  r = Cli({"tournament", "export", "cup", "--format", "opengotha", "--out", xml});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("player 'A' (Li) has no given name, and OpenGotha requires a first name"));
  r = Cli({"tournament", "export", "cup", "--format", "h9"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("EGF class (CL[]"));
  r = Cli({"tournament", "export", "cup", "--format", "csv"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(",C,Chen,"));

  // An OpenGotha file read in, written out with its sidecar, and read back
  // as a new tournament gives the same points.
  r = Cli({"tournament", "import", "--id", "autumn", std::string(ARBITER_SOURCE_DIR) + "/tests/tournament/data/swiss4.xml"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "export", "autumn", "--format", "opengotha", "--out", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(Slurp(xml), HasSubstr("<PairingParameterSet "));
  EXPECT_THAT(Slurp(xml), HasSubstr("result=\"RESULT_WHITEWINS_BYDEF\""));
  EXPECT_THAT(Slurp(xml + ".reasons.json"), HasSubstr("\"format\": \"OPENGOTHA_XML\""));
  r = Cli({"tournament", "import", "--id", "autumn2", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "autumn2", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  arbiter::v1::StandingsReport back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &back).ok());
  ASSERT_EQ(back.standings_size(), 5);
  EXPECT_EQ(back.standings(0).points() + back.standings(1).points(), 6);  // Li 3, Müller 3

  r = Cli({"tournament", "standings", "nope"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("NOT_FOUND"));
}

// Once a token exists, `arbiter serve` admits tournament calls as it does
// game calls: a token for every call, the chief arbiter's for the
// organiser's writes.
TEST_F(E2E, TournamentCallsNeedATokenAndOrganisingTheChiefArbiters) {
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  const std::string software = Token("SOFTWARE", "broadcast");
  const std::vector<std::string> create = {"tournament", "create", "--id", "cup", "--system",
                                           "round-robin", "--player", "A:Li", "--player", "B:Wang"};
  CliRun r = Cli(create);
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("UNAUTHENTICATED"));
  r = Cli(create, "", software);
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("PERMISSION_DENIED"));
  r = Cli({"tournament", "standings", "cup"}, "", software);
  EXPECT_THAT(r.err, HasSubstr("NOT_FOUND")) << "the refused creations wrote nothing";

  r = Cli(create, "", chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "cup"}, "", software);
  EXPECT_EQ(r.exit, 0) << r.err;
}

}  // namespace
