// The end-to-end tests' fixture: a real `arbiter serve` in a temporary
// folder, and the CLI run against it as a process.
#ifndef ARBITER_TESTS_TOURNAMENT_E2E_FIXTURE_H_
#define ARBITER_TESTS_TOURNAMENT_E2E_FIXTURE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adjudicator/tournament/xml.h"
#include "arbiter/v1/tournament.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::tournament_e2e {

using testing::ProcessResult;
using testing::ReadFile;

class E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::ServerProcess::Start(dir_.File("data"));
    ASSERT_NE(server_, nullptr);
  }

  // `arbiter ARGS... --server ADDR`, stdin from `input_file` if any, with
  // $ARBITER_TOKEN set to `token` if any.
  ProcessResult Cli(std::vector<std::string> args, const std::string& input_file = "",
                    const std::string& token = "") {
    args.push_back("--server");
    args.push_back(server_->address());
    return Run(std::move(args), input_file, token);
  }

  // `arbiter token create --role ROLE --name NAME --db <the server's>`: the
  // secret.
  std::string Token(const std::string& role, const std::string& name) {
    std::string token = testing::CreateToken(dir_.File("data"), role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  ProcessResult Run(std::vector<std::string> args, const std::string& input_file = "",
                    const std::string& token = "") {
    testing::RunOptions options;
    if (!input_file.empty()) options.input = ReadFile(input_file);
    if (token.empty()) {
      options.env.unset = {"ARBITER_TOKEN"};
    } else {
      options.env.set = {{"ARBITER_TOKEN", token}};
    }
    return testing::RunArbiter(args, options);
  }

  // `tournament create` of the Spring Cup, a round robin of four: native
  // names (family, given) with the romanized name the ASCII formats and
  // OpenGotha need (李伟 as Li Wei), and the EGD header's class, adjusted
  // time and country. Players A-D: 李伟 5D, Wang Ming 4D, Chen Jie 1K, Zhou Yu 2K.
  ProcessResult CreateSpringCup() {
    return Cli({"tournament",
                "create",
                "--id",
                "cup",
                "--system",
                "round-robin",
                "--title",
                "Spring Cup",
                "--player",
                "A:李,伟:5D",
                "--romanized",
                "A:Li,Wei",
                "--player",
                "B:Wang,Ming:4D",
                "--player",
                "C:Chen,Jie:1K",
                "--player",
                "D:Zhou,Yu:2K",
                "--location",
                "Beijing",
                "--country",
                "CN",
                "--dates",
                "2026-05-01",
                "--egf-class",
                "B",
                "--adjusted-time",
                "60"});
  }

  void Record(const std::string& name, const std::string& lines) {
    const std::string path = dir_.File(name + ".jsonl");
    testing::WriteFile(path, lines);
    ProcessResult r = Cli({"record", path});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  // `tournament standings ID --json`, exiting `exit`, read back into
  // `report`. Call through ASSERT_NO_FATAL_FAILURE.
  void StandingsJson(const std::string& id, v1::StandingsReport* report, int exit = 0) {
    ProcessResult r = Cli({"tournament", "standings", id, "--json"});
    ASSERT_EQ(r.exit, exit) << r.err;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, report).ok()) << r.out;
  }

  testing::TempDir dir_{"tournament-e2e"};
  std::unique_ptr<testing::ServerProcess> server_;
};

inline std::string Created(const std::string& id, const std::string& black,
                           const std::string& white) {
  return "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"" + id +
         "\", \"ruleset\": \"cn-2002\", \"boardSize\": 19, \"black\": {\"name\": \"" + black +
         "\"}, \"white\": {\"name\": \"" + white +
         "\"}, \"venue\": \"SAME_SITE\", \"scheduledStart\": \"2026-05-01T09:00:00Z\"}}\n"
         "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n"
         "{\"at\": \"2026-05-01T09:00:10Z\", \"move\": {\"color\": \"BLACK\", \"point\": "
         "\"Q16\"}}\n";
}

// Looks up the first element named `name` whose attribute `attr` is `value`
// anywhere under `e`.
inline const tournament::XmlElement* Find(const tournament::XmlElement& e, const std::string& name,
                                          const std::string& attr, const std::string& value) {
  for (const auto& c : e.children) {
    const std::string* v = c->Attribute(attr);
    if (c->name == name && v != nullptr && *v == value) return c.get();
    if (const tournament::XmlElement* found = Find(*c, name, attr, value)) return found;
  }
  return nullptr;
}

inline std::string Attr(const tournament::XmlElement* e, const std::string& attr) {
  if (e == nullptr) return "(no element)";
  const std::string* v = e->Attribute(attr);
  return v == nullptr ? "(no attribute)" : *v;
}

}  // namespace arbiter::tournament_e2e

#endif  // ARBITER_TESTS_TOURNAMENT_E2E_FIXTURE_H_
