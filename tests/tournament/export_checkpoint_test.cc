// Every export format names the record it came from in its own syntax, and
// the words read back whatever the log's origin holds (a C2SP key name: any
// UTF-8 without spaces or '+', so "--", ',', '"' and non-ASCII letters too),
// while the file stays what its readers accept: ASCII for .h9 and AGA, a
// legal XML comment for OpenGotha (expat refuses "--" inside one).
#include "adjudicator/tournament/export_checkpoint.h"

#include <string>

#include "absl/strings/escaping.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/standings.h"
#include "adjudicator/tournament/xml.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using ::testing::HasSubstr;

class ExportCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
    b.settings()->set_egf_class("B");
    b.settings()->set_adjusted_time_minutes(60);
    b.Player("LI").Player("WANG");
    b.Round(1, {{"LI", "WANG", "G1"}});
    t_ = b.Build();
    for (int i = 0; i < 2; ++i) {
      t_.mutable_players(i)->set_name(i == 0 ? "Li" : "Wang");
      t_.mutable_players(i)->set_first_name(i == 0 ? "Wei" : "Ming");
      t_.mutable_players(i)->set_rank("3D");
    }
    games_["G1"] = testing::Decided(v1::Result::BLACK_WINS);
    report_ = ComputeStandings(t_, games_);
    report_.mutable_checkpoint()->set_origin(kOrigin);
    report_.mutable_checkpoint()->set_tree_size(42);
    report_.mutable_checkpoint()->set_root_hash(absl::Base64Escape(std::string(32, '\x7f')));
  }

  static constexpr char kOrigin[] = "venue--pc/var/lib/ärbiter,\"x\"%-";
  v1::Tournament t_;
  GameFactsMap games_;
  v1::StandingsReport report_;
};

TEST_F(ExportCheckpointTest, EveryFormatNamesTheCheckpointAndReadsBack) {
  for (const TournamentExportFormat& f : TournamentExportFormats()) {
    SCOPED_TRACE(std::string(f.name));
    absl::StatusOr<std::string> file = f.write(t_, report_, {});
    ASSERT_TRUE(file.ok()) << file.status();
    absl::StatusOr<NamedRecord> named = ReadNamedRecord(*file);
    ASSERT_TRUE(named.ok()) << named.status() << "\n" << *file;
    EXPECT_EQ(named->format, f.format);
    EXPECT_EQ(named->tournament_id, "T");
    EXPECT_EQ(named->checkpoint.origin(), kOrigin);
    EXPECT_EQ(named->checkpoint.tree_size(), 42u);
    EXPECT_EQ(named->checkpoint.root_hash(), report_.checkpoint().root_hash());
    if (f.format == v1::ExportTournamentRequest::EGD_H9 ||
        f.format == v1::ExportTournamentRequest::AGA) {
      for (char c : *file) EXPECT_TRUE(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f));
    }
    if (f.format == v1::ExportTournamentRequest::OPENGOTHA_XML) {
      EXPECT_TRUE(ParseXml(*file).ok()) << "a legal comment";
      EXPECT_THAT(*file, HasSubstr("<!-- derived from tournaments/T at checkpoint venue-%2Dpc"));
    }
  }
}

TEST_F(ExportCheckpointTest, AFileWithoutTheWordsNamesNoRecord) {
  report_.clear_checkpoint();
  for (const TournamentExportFormat& f : TournamentExportFormats()) {
    SCOPED_TRACE(std::string(f.name));
    absl::StatusOr<std::string> file = f.write(t_, report_, {});
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(ReadNamedRecord(*file).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(FirstDifference, NamesTheFirstLineThatDiffersWithBothTexts) {
  EXPECT_FALSE(FirstDifference("a\nb\n", "a\nb\n").has_value());
  std::optional<LineDifference> d = FirstDifference("a\nb\nc\n", "a\nB\nc\n");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->line, 2);
  EXPECT_EQ(d->ours, "b");
  EXPECT_EQ(d->theirs, "B");
  d = FirstDifference("a\n", "a\nextra\n");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->line, 2);
  EXPECT_EQ(d->theirs, "extra");
}

}  // namespace
}  // namespace arbiter::tournament
