// A game pinned to a published ruleset version is judged under it for ever:
// games recorded at b455db4, under cn-2002 2002.1 and cn-1988 1988.1
// (tests/data/pinned), re-adjudicate to exactly the rulings and result they
// recorded, loaded by the content hash they pinned, although the latest
// versions rule the same events differently.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/report.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "rulesdb/rules.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;
using google::protobuf::util::MessageDifferencer;

v1::AdjudicationReport Fold(const Rules& rules, const std::vector<v1::Event>& events) {
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(rules);
  EXPECT_TRUE(a.ok());
  for (const v1::Event& e : events) {
    absl::StatusOr<std::vector<v1::Ruling>> r = a->Apply(e);
    EXPECT_TRUE(r.ok()) << r.status() << "\n" << e.ShortDebugString();
  }
  return BuildReport(*a);
}

std::vector<fs::path> Games() {
  std::vector<fs::path> out;
  for (const auto& f : fs::directory_iterator(fs::path(testing::TestDataPath("pinned")))) {
    if (f.path().extension() == ".jsonl") out.push_back(f.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PinnedVersionTest, RecordedGamesReadjudicateToTheirRecordedRulings) {
  const std::vector<fs::path> games = Games();
  ASSERT_EQ(games.size(), 6u);
  for (const fs::path& game : games) {
    SCOPED_TRACE(game.filename().string());
    fs::path recorded_path = game;
    recorded_path.replace_extension(".recorded.json");
    v1::AdjudicationReport recorded;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(
                    testing::ReadFile(recorded_path.string()), &recorded)
                    .ok());
    absl::StatusOr<std::vector<v1::Event>> read = testing::ReadEventLines(game.string());
    ASSERT_TRUE(read.ok()) << read.status();
    const std::vector<v1::Event>& events = *read;
    ASSERT_FALSE(events.empty());

    // The ledger's pin: the ruleset's content hash at creation.
    absl::StatusOr<Rules> pinned =
        LoadRulesByHash(recorded.ruleset_hash(), events[0].game_created().supplement());
    ASSERT_TRUE(pinned.ok()) << pinned.status();
    EXPECT_EQ(pinned->version(), pinned->id() == "cn-2002" ? "2002.1" : "1988.1");
    const v1::AdjudicationReport again = Fold(*pinned, events);
    ASSERT_EQ(again.rulings_size(), recorded.rulings_size());
    for (int i = 0; i < again.rulings_size(); ++i) {
      std::string diff;
      MessageDifferencer d;
      d.ReportDifferencesToString(&diff);
      EXPECT_TRUE(d.Compare(recorded.rulings(i), again.rulings(i)))
          << "ruling " << i + 1 << ": " << diff;
    }
    std::string diff;
    MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(recorded.result(), again.result())) << diff;
    EXPECT_EQ(again.ruleset_hash(), recorded.ruleset_hash());

    // The latest version rules these events otherwise: a game created
    // today gets the new rulings, and re-adjudicating under the latest
    // would fail the audit.
    const v1::AdjudicationReport latest = Fold(*LoadRules(pinned->id()), events);
    bool same = latest.rulings_size() == recorded.rulings_size() &&
                MessageDifferencer::Equals(latest.result(), recorded.result());
    for (int i = 0; same && i < latest.rulings_size(); ++i) {
      same = MessageDifferencer::Equals(latest.rulings(i), recorded.rulings(i));
    }
    EXPECT_FALSE(same) << "the latest version rules this game as the first did";
  }
}

}  // namespace
}  // namespace arbiter
