// The console's words (adjudicator/service/console/words.h), against the
// wording the chief arbiters asked for in issue 30: "Black Q16", "黑 Q16",
// "手机响铃 / phone rang", "警告一次，罚一子 / a warning, one penalty stone",
// "白中盘胜", "White wins on warnings".
#include "adjudicator/service/console/words.h"

#include <set>
#include <string>

#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/service/console/assets.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace arbiter::service::console {
namespace {

v1::Event Move(v1::Color c, const char* point) {
  v1::Event e;
  e.mutable_move()->set_color(c);
  e.mutable_move()->set_point(point);
  return e;
}

// Every reason a refusal may carry (refusal_reason.h) has its words in both
// languages, and the table words no reason the engine never gives: the
// floor's phone would otherwise show the English sentence to a Chinese hall.
TEST(Words, EveryRefusalReasonHasItsWords) {
  const Asset* words = FindAsset("words.json");
  ASSERT_NE(words, nullptr);
  google::protobuf::Struct table;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(std::string(words->body), &table).ok());
  ASSERT_EQ(table.fields().count("refusal"), 1u);
  const auto& refusals = table.fields().at("refusal").struct_value().fields();
  std::set<std::string> reasons;
  for (absl::string_view reason : kRefusalReasons) {
    reasons.insert(std::string(reason));
    auto it = refusals.find(std::string(reason));
    ASSERT_NE(it, refusals.end()) << reason << " has no words";
    ASSERT_EQ(it->second.list_value().values_size(), 2) << reason;
    for (const auto& w : it->second.list_value().values()) EXPECT_FALSE(w.string_value().empty());
  }
  for (const auto& [reason, words_of_it] : refusals) {
    EXPECT_EQ(reasons.count(reason), 1u) << reason << " is worded but no refusal gives it";
  }
}

TEST(Words, MovesReadAsColourAndPoint) {
  EXPECT_EQ(EventWords(Move(v1::BLACK, "Q16"), Lang::kEn), "Black Q16");
  EXPECT_EQ(EventWords(Move(v1::BLACK, "Q16"), Lang::kZh), "黑 Q16");
  EXPECT_EQ(EventWords(Move(v1::WHITE, "D4"), Lang::kZh), "白 D4");
}

TEST(Words, IncidentsNameThePlayer) {
  v1::Event e;
  e.mutable_phone_rang()->set_color(v1::WHITE);
  EXPECT_EQ(EventWords(e, Lang::kZh), "白方手机响铃");
  EXPECT_EQ(EventWords(e, Lang::kEn), "phone rang (White)");
  v1::Event m;
  m.mutable_misconduct()->set_color(v1::BLACK);
  m.mutable_misconduct()->set_kind(v1::Misconduct::TALK);
  EXPECT_EQ(EventWords(m, Lang::kEn), "misconduct by Black: talking");
  v1::Event d;
  d.mutable_arbiter_decision()->set_ruling(3);
  d.mutable_arbiter_decision()->set_choice("WARNING");
  EXPECT_EQ(EventWords(d, Lang::kEn), "decision on #3: WARNING");
  v1::Event c;
  c.mutable_clock_malfunction();
  EXPECT_EQ(EventWords(c, Lang::kZh), "计时钟故障");
}

TEST(Words, SanctionsInWordsCounted) {
  v1::Ruling r;
  r.add_sanctions(v1::WARNING);
  r.add_sanctions(v1::PENALTY_STONE);
  EXPECT_EQ(SanctionWords(r, Lang::kZh), "警告一次，罚一子");
  EXPECT_EQ(SanctionWords(r, Lang::kEn), "a warning, one penalty stone");
  r.add_sanctions(v1::PENALTY_STONE);
  EXPECT_EQ(SanctionWords(r, Lang::kEn), "a warning, 2 penalty stones");
  EXPECT_EQ(SanctionWords(r, Lang::kZh), "警告一次，罚2子");
  v1::Ruling late;
  late.add_sanctions(v1::TIME_DEDUCTED);
  late.mutable_time_deducted()->set_seconds(900);
  EXPECT_EQ(SanctionWords(late, Lang::kZh), "扣时 15分钟");
  EXPECT_EQ(SanctionWords(late, Lang::kEn), "time deducted 15 min");
}

TEST(Words, ResultsFromOutcomeAndReason) {
  v1::Result r;
  r.set_outcome(v1::Result::WHITE_WINS);
  r.set_reason(v1::Result::RESIGNATION);
  r.set_sgf("W+R");
  EXPECT_EQ(ResultWords(r, Lang::kZh), "白中盘胜");
  EXPECT_EQ(ResultWords(r, Lang::kEn), "White wins by resignation");
  r.set_reason(v1::Result::WARNINGS);
  EXPECT_EQ(ResultWords(r, Lang::kEn), "White wins on warnings");
  r.set_outcome(v1::Result::BLACK_WINS);
  r.set_reason(v1::Result::COUNT);
  r.set_margin_stones(3.75);
  EXPECT_EQ(ResultWords(r, Lang::kZh), "黑胜3又3/4子");
  EXPECT_EQ(ResultWords(r, Lang::kEn), "Black wins by 3¾ stones (7.5 points)");
  r.set_margin_stones(0.5);
  EXPECT_EQ(ResultWords(r, Lang::kZh), "黑胜1/2子");
  v1::Result draw;
  draw.set_outcome(v1::Result::DRAW);
  EXPECT_EQ(ResultWords(draw, Lang::kZh), "和棋");
}

TEST(Words, SidesAndAuthorities) {
  EXPECT_EQ(SideWord("WHITE", Lang::kZh), "白方");
  EXPECT_EQ(EnumWord("CHIEF_ARBITER", Lang::kEn), "the chief arbiter");
  // A label before a name (issue 43.4): 裁判长 Chief arbiter Li Wei.
  EXPECT_EQ(WhoWord("CHIEF_ARBITER", Lang::kZh), "裁判长");
  EXPECT_EQ(WhoWord("CHIEF_ARBITER", Lang::kEn), "Chief arbiter");
  EXPECT_EQ(WhoWord("ARBITER", Lang::kZh), "裁判员");
  EXPECT_EQ(WhoWord("ARBITER", Lang::kEn), "Arbiter");
}

}  // namespace
}  // namespace arbiter::service::console
