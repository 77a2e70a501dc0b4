// Corrections (DOMAIN.md §3.1): an `eventVoided` cites a mistaken event and a
// reason; the fold skips it, the rulings issued from it on are superseded,
// and the events after it are judged as if it had never been recorded.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

std::string Voided(int event, const std::string& reason = "mistyped") {
  return absl::StrCat(R"("eventVoided": {"event": )", event, R"(, "reason": ")", reason, R"("})");
}

// `kind` dated in 2062, as the mistyped time of issue 13.
v1::Event In2062(const std::string& kind) {
  v1::Event e = Ev(0, kind);
  e.mutable_at()->set_seconds(absl::ToUnixSeconds(
      absl::FromCivil(absl::CivilSecond(2062, 5, 1, 9, 0, 0), absl::UTCTimeZone())));
  return e;
}

// The numbers of the rulings the history shows as superseded by a correction.
std::vector<uint32_t> SupersededByVoid(const std::vector<v1::Ruling>& rulings) {
  std::vector<uint32_t> out;
  for (const v1::Ruling& r : rulings) {
    if (r.voided() != 0) out.push_back(r.supersedes());
  }
  return out;
}

class CorrectionTest : public ::testing::Test {
 protected:
  CorrectionTest() : g_("cn-2002") {
    EXPECT_TRUE(g_.Apply(0, Created("cn-2002")).ok());  // event 1
  }
  // Folds the same events into a new adjudicator, as `verify` and
  // `adjudicate` do, and expects the same rulings byte for byte.
  void ExpectReadjudicatedAlike(const std::vector<v1::Event>& events) {
    Game again("cn-2002");
    for (const v1::Event& e : events) ASSERT_TRUE(again.Apply(e).ok());
    ASSERT_EQ(again.rulings().size(), g_.rulings().size());
    for (size_t i = 0; i < g_.rulings().size(); ++i) {
      EXPECT_EQ(again.rulings()[i].SerializeAsString(), g_.rulings()[i].SerializeAsString()) << i;
    }
  }
  Game g_;
};

TEST_F(CorrectionTest, AMoveDated2062VoidedLosesItsLatenessLossAndLaterEventsAreJudged) {
  std::vector<v1::Event> events = {Ev(0, Created("cn-2002")),
                                   Ev(0, R"("gameStarted": {"absent": ["WHITE"]})")};
  ASSERT_TRUE(g_.Apply(events[1]).ok());
  events.push_back(Ev(60, Move("BLACK", "Q16")));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  events.push_back(Ev(60, Of("clockPress", "BLACK")));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  // White's arrival, mistyped as 2062: far past the 15 minutes of 22.2.
  events.push_back(In2062(Of("playerArrived", "WHITE")));  // event 5
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  ASSERT_NE(g_.a().result(), nullptr);
  EXPECT_EQ(g_.a().result()->reason(), v1::Result::LATENESS);
  const size_t before = g_.rulings().size();
  ASSERT_GE(before, 1u);
  // Unvoided, the true time would be "earlier than the previous event".
  EXPECT_FALSE(g_.a().rulings().empty());

  events.push_back(Ev(400, Voided(5, "arrival mistyped as 2062")));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  EXPECT_EQ(g_.a().result(), nullptr);
  std::vector<uint32_t> expected;
  for (uint32_t n = 1; n <= before; ++n) expected.push_back(n);
  EXPECT_EQ(SupersededByVoid(g_.rulings()), expected);
  EXPECT_EQ(g_.rulings().back().note(), "arrival mistyped as 2062");
  EXPECT_EQ(g_.rulings().back().voided(), 5u);
  EXPECT_EQ(g_.rulings().back().event(), 6u);

  // The arrival at its true time, 7 minutes late: twice that off the clock.
  events.push_back(Ev(420, Of("playerArrived", "WHITE")));
  ASSERT_TRUE(g_.Apply(events.back()).ok()) << g_.Apply(events.back());
  EXPECT_EQ(g_.a().result(), nullptr);
  const v1::Ruling& late = g_.rulings().back();
  EXPECT_EQ(late.clause(), "cn-2002/22.2");
  EXPECT_EQ(late.event(), 7u);
  EXPECT_EQ(late.time_deducted().seconds(), 2 * 420);
  events.push_back(Ev(430, Move("WHITE", "D4")));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  ExpectReadjudicatedAlike(events);
}

TEST_F(CorrectionTest, AWrongPointVoidedLeavesTheBoardAndTurnAsBefore) {
  ASSERT_TRUE(g_.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g_.Apply(10, Move("BLACK", "Q16")).ok());
  const v1::GameState before = g_.a().State();
  ASSERT_TRUE(g_.Apply(20, Move("WHITE", "D4")).ok());  // event 4: meant D16
  ASSERT_TRUE(g_.Apply(25, Voided(4, "the move was D16")).ok());
  const v1::GameState after = g_.a().State();
  EXPECT_EQ(after.board().size(), before.board().size());
  for (int i = 0; i < after.board().size(); ++i) EXPECT_EQ(after.board(i), before.board(i));
  EXPECT_EQ(after.to_move(), v1::WHITE);
  EXPECT_EQ(after.move_number(), before.move_number());
  ASSERT_TRUE(g_.Apply(30, Move("WHITE", "D16")).ok());
  // D16 is row 16 from the bottom: row 4 of the board's rows; D4 stays empty.
  const v1::GameState now = g_.a().State();
  EXPECT_EQ(now.board(3)[3], 'O');
  EXPECT_EQ(now.board(15)[3], '.');
}

TEST_F(CorrectionTest, ARingOfTheWrongPlayerVoidedSupersedesItsWarning) {
  ASSERT_TRUE(g_.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g_.Apply(10, Of("phoneRang", "BLACK")).ok());  // event 3: it was White's
  ASSERT_EQ(g_.rulings().size(), 1u);
  EXPECT_EQ(g_.a().State().warnings().black(), 1);
  const v1::Ruling original = g_.rulings()[0];
  ASSERT_TRUE(g_.Apply(20, Voided(3, "it was White's phone")).ok());
  ASSERT_EQ(g_.rulings().size(), 2u);
  EXPECT_EQ(g_.rulings()[0].SerializeAsString(), original.SerializeAsString());
  const v1::Ruling& notice = g_.rulings()[1];
  EXPECT_EQ(notice.supersedes(), 1u);
  EXPECT_EQ(notice.voided(), 3u);
  EXPECT_EQ(notice.clause(), original.clause());
  EXPECT_EQ(notice.decided_by(), v1::CHIEF_ARBITER);
  EXPECT_TRUE(notice.sanctions().empty());
  EXPECT_EQ(g_.a().State().warnings().black(), 0);
  EXPECT_EQ(g_.a().State().penalty_stones().black(), 0);
  ASSERT_TRUE(g_.Apply(30, Of("phoneRang", "WHITE")).ok());
  EXPECT_EQ(g_.a().State().warnings().white(), 1);
  // Black's next ring is his first: a warning, not the loss of a second.
  ASSERT_TRUE(g_.Apply(40, Of("phoneRang", "BLACK")).ok());
  EXPECT_EQ(g_.a().State().warnings().black(), 1);
  EXPECT_EQ(g_.a().result(), nullptr);
  // A superseded ruling can no longer be appealed.
  EXPECT_EQ(g_.Apply(50, R"("appealLodged": {"ruling": 1, "byColor": "BLACK"})").code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(CorrectionTest, LaterRulingsKeepTheirNumbersWhenUnchangedAndAreIssuedAgainWhenNot) {
  std::vector<v1::Event> events = {Ev(0, Created("cn-2002")), Ev(0, R"("gameStarted": {})"),
                                   Ev(10, Of("phoneRang", "BLACK")),  // 3: ruling 1, mistaken
                                   Ev(20, R"("misconduct": {"color": "WHITE", "kind": "TALK"})"),
                                   Ev(30, Of("phoneRang", "BLACK"))};  // 5: second: a loss
  for (size_t i = 1; i < events.size(); ++i) ASSERT_TRUE(g_.Apply(events[i]).ok());
  ASSERT_NE(g_.a().result(), nullptr);
  ASSERT_TRUE(g_.rulings()[1].pending());
  const size_t before = g_.rulings().size();
  events.push_back(Ev(40, Voided(3, "nobody's phone rang")));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  EXPECT_EQ(g_.a().result(), nullptr);
  // The pending talk ruling (2) is issued again unchanged: it keeps its
  // number and stays pending; the rest are superseded.
  const std::vector<uint32_t> superseded = SupersededByVoid(g_.rulings());
  EXPECT_EQ(std::count(superseded.begin(), superseded.end(), 2u), 0);
  EXPECT_EQ(std::count(superseded.begin(), superseded.end(), 1u), 1);
  EXPECT_EQ(std::count(superseded.begin(), superseded.end(), 3u), 1);
  EXPECT_EQ(g_.a().State().pending_rulings_size(), 1);
  EXPECT_EQ(g_.a().State().pending_rulings(0), 2u);
  // Black's ring at event 5 is now his first: a warning, issued anew after
  // the superseding rulings.
  const v1::Ruling& again = g_.rulings().back();
  EXPECT_GT(again.number(), before + superseded.size() - 1);
  EXPECT_EQ(again.event(), 5u);
  EXPECT_EQ(again.warnings(), 1);
  EXPECT_EQ(g_.a().State().warnings().black(), 1);
  // The decision on ruling 2 still finds it.
  events.push_back(Ev(50, R"("arbiterDecision": {"ruling": 2, "choice": "WARNING"})"));
  ASSERT_TRUE(g_.Apply(events.back()).ok());
  EXPECT_EQ(g_.a().State().warnings().white(), 1);
  ExpectReadjudicatedAlike(events);
}

TEST_F(CorrectionTest, RefusalsLeaveTheGameAsItWas) {
  ASSERT_TRUE(g_.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g_.Apply(10, Move("BLACK", "Q16")).ok());  // 3
  ASSERT_TRUE(g_.Apply(20, R"("adjourned": {})").ok());  // 4
  ASSERT_TRUE(g_.Apply(30, R"("resumed": {})").ok());    // 5
  const std::string state = g_.a().State().SerializeAsString();
  EXPECT_EQ(g_.Apply(40, Voided(1)).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g_.Apply(40, Voided(0)).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(g_.Apply(40, Voided(6)).code(), absl::StatusCode::kNotFound);  // itself
  EXPECT_EQ(g_.Apply(40, Voided(99)).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(g_.Apply(40, Voided(5, "")).code(), absl::StatusCode::kInvalidArgument);
  // Without the adjournment, the resumption would be refused.
  const absl::Status dependent = g_.Apply(40, Voided(4));
  EXPECT_EQ(dependent.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(dependent.message().find("event 5"), std::string::npos) << dependent;
  v1::Event by_arbiter = Ev(40, Voided(5));
  by_arbiter.set_authority(v1::ARBITER);
  EXPECT_EQ(g_.Apply(by_arbiter).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(g_.a().events(), 5u);
  EXPECT_EQ(g_.a().State().SerializeAsString(), state);

  ASSERT_TRUE(g_.Apply(40, Voided(5)).ok());  // 6
  EXPECT_EQ(g_.Apply(50, Voided(5)).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g_.Apply(50, Voided(6)).code(), absl::StatusCode::kFailedPrecondition);
  // Latest first: now the adjournment can go, and play goes on.
  ASSERT_TRUE(g_.Apply(50, Voided(4)).ok());             // 7
  ASSERT_TRUE(g_.Apply(60, Move("WHITE", "D16")).ok());  // 8
  // A correction dated before the events it keeps is refused.
  EXPECT_EQ(g_.Apply(45, Voided(8)).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(g_.Apply(65, Voided(8)).ok());
  EXPECT_EQ(g_.a().State().to_move(), v1::WHITE);
}

}  // namespace
}  // namespace arbiter::testing
