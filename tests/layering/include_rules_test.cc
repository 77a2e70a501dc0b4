// The include-direction check finds every include against the layering in a
// tree built to break each rule (testdata/), at its file and line, and
// nothing that the layering allows.
#include "tests/layering/include_rules.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/paths.h"

namespace arbiter::layering {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Places(const std::vector<Violation>& violations) {
  std::vector<std::string> out;
  for (const Violation& v : violations) out.push_back(v.file + ":" + std::to_string(v.line));
  return out;
}

TEST(IncludeRules, FindsEveryBadIncludeAndNothingElse) {
  const std::vector<Violation> found =
      CheckIncludes(::arbiter::testing::SourcePath("tests/layering/testdata"));
  EXPECT_THAT(
      Places(found),
      ElementsAre(
          "adjudicator/engine/fold.cc:4", "adjudicator/engine/fold.cc:5",
          "adjudicator/engine/fold.cc:6", "adjudicator/engine/fold.cc:7",
          "adjudicator/engine/fold.cc:8", "adjudicator/engine/fold.cc:9",
          "adjudicator/engine/fold.cc:10", "adjudicator/engine/fold.cc:11",
          "adjudicator/judge/adjudicator_judge.cc:7", "adjudicator/judge/adjudicator_judge.cc:8",
          "adjudicator/judge/adjudicator_judge.cc:9", "adjudicator/judge/adjudicator_judge.cc:10",
          "adjudicator/judge/adjudicator_judge.cc:11", "adjudicator/judge/adjudicator_judge.cc:12",
          "adjudicator/service/server.cc:5", "adjudicator/service/server.cc:6",
          "adjudicator/service/server.cc:8", "adjudicator/service/server.cc:10",
          "adjudicator/tournament/scoring.cc:4", "adjudicator/tournament/scoring.cc:5",
          "adjudicator/tournament/scoring.cc:6", "adjudicator/tournament/scoring.cc:7",
          "adjudicator/tournament/scoring.cc:8", "adjudicator/tournament/scoring.cc:9",
          "cli/main.cc:4", "cli/main.cc:6", "cli/main.cc:7", "ledger/postgres/audit_source.cc:7",
          "ledger/postgres/audit_source.cc:8", "ledger/postgres/audit_source.cc:9",
          "ledger/sqlite/audit_source.cc:7", "ledger/sqlite/audit_source.cc:8", "ledger/store.h:7",
          "ledger/store.h:8", "proto/canonical/bytes.cc:3", "proto/canonical/bytes.cc:4",
          "rulesdb/tools/tool.cc:3", "rulesdb/tools/tool.cc:4", "tests/service/watch_test.cc:4"));
}

TEST(IncludeRules, SaysWhatWasIncludedAndWhichRuleItBreaks) {
  const std::vector<Violation> found =
      CheckIncludes(::arbiter::testing::SourcePath("tests/layering/testdata"));
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(Describe(found[0]),
            "adjudicator/engine/fold.cc:4: includes \"grpcpp/grpcpp.h\": the engine is pure: no "
            "gRPC, SQLite, PostgreSQL or ledger/ header");
  for (const Violation& v : found) {
    if (v.file == "rulesdb/tools/tool.cc" && v.line == 3) {
      EXPECT_THAT(v.rule, HasSubstr("rulesdb/ (the rules as data) includes nothing from ledger/"));
    }
    if (v.file == "adjudicator/judge/adjudicator_judge.cc" && v.line == 7) {
      EXPECT_EQ(v.include, "ledger/ledger.h");
      EXPECT_THAT(v.rule, HasSubstr("the judge adapter includes the engine, rulesdb/ and "
                                    "ledger/judge.h only"));
    }
    if (v.file == "cli/main.cc" && v.line == 4) {
      EXPECT_EQ(v.include, "tests/support/files.h");
    }
    if (v.file == "ledger/postgres/audit_source.cc" && v.line == 7) {
      EXPECT_EQ(v.include, "ledger/sqlite/schema.h");
      EXPECT_THAT(v.rule, HasSubstr("ledger/postgres/ includes nothing of SQLite"));
    }
    if (v.file == "ledger/sqlite/audit_source.cc" && v.line == 7) {
      EXPECT_EQ(v.include, "ledger/postgres/pg.h");
      EXPECT_THAT(v.rule, HasSubstr("ledger/sqlite/ includes nothing of PostgreSQL"));
    }
    if (v.file == "cli/main.cc" && v.line == 6) {
      EXPECT_EQ(v.include, "ledger/sqlite/writer_internal.h");
      EXPECT_THAT(v.rule, HasSubstr("cli/ includes no ledger internals"));
    }
    if (v.file == "cli/main.cc" && v.line == 7) {
      EXPECT_EQ(v.include, "ledger/internal/append_rows.h");
      EXPECT_THAT(v.rule, HasSubstr("cli/ includes no ledger internals"));
    }
  }
}

// The ledger's internals are fenced off from every folder above it, the
// service as much as the CLI, and from every test but the ledger's own.
TEST(IncludeRules, NothingAboveTheLedgerIncludesItsInternals) {
  const std::vector<Violation> found =
      CheckIncludes(::arbiter::testing::SourcePath("tests/layering/testdata"));
  std::vector<std::string> internals;
  for (const Violation& v : found) {
    if (v.include.rfind("ledger/internal/", 0) == 0 || v.include == "ledger/postgres/pg.h") {
      internals.push_back(Describe(v));
    }
  }
  EXPECT_THAT(
      internals,
      ElementsAre(
          "adjudicator/service/server.cc:8: includes \"ledger/internal/batch.h\": adjudicator/ "
          "includes no ledger internals (ledger/internal/, ledger/sqlite/, ledger/postgres/), only "
          "the public headers at the top of ledger/",
          "adjudicator/service/server.cc:10: includes \"ledger/postgres/pg.h\": adjudicator/ "
          "includes no ledger internals (ledger/internal/, ledger/sqlite/, ledger/postgres/), only "
          "the public headers at the top of ledger/",
          HasSubstr("cli/main.cc:7: includes \"ledger/internal/append_rows.h\": cli/ includes no "
                    "ledger internals"),
          HasSubstr("ledger/sqlite/audit_source.cc:7: includes \"ledger/postgres/pg.h\""),
          "tests/service/watch_test.cc:4: includes \"ledger/internal/append_rows.h\": tests "
          "outside tests/ledger/ include nothing of ledger/internal/, only the ledger's public "
          "headers"));
}

}  // namespace
}  // namespace arbiter::layering
