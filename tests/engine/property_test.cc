// Properties of the fold over long real games with incidents:
// - incremental: any prefix, then the rest, equals the whole, byte for byte,
//   whether the rest is folded into the same adjudicator or a copy of it;
// - deterministic: the same events give byte-identical rulings;
// - re-judged under cn-1988, a game differs only where the encodings differ.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/report.h"
#include "adjudicator/engine/sgf.h"
#include "gtest/gtest.h"
#include "proto/canonical/canonical_bytes.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/sgf_events.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter::testing {
namespace {

constexpr const char* kGames[] = {"handtalk__handtalk1.sgf", "handtalk__handtalk13.sgf"};

Adjudicator Fold(const std::string& ruleset, const std::vector<v1::Event>& events, size_t from,
                 size_t to, Adjudicator a) {
  for (size_t i = from; i < to; ++i) {
    const absl::StatusOr<std::vector<v1::Ruling>> r = a.Apply(events[i]);
    if (!r.ok()) {
      std::string rulings;
      for (const v1::Ruling& x : a.rulings()) absl::StrAppend(&rulings, x.ShortDebugString(), "\n");
      ADD_FAILURE() << ruleset << " event " << i + 1 << ": " << r.status() << "\n" << rulings;
      break;
    }
  }
  return a;
}

Adjudicator Fresh(const std::string& ruleset) { return *Adjudicator::Create(*LoadRules(ruleset)); }

std::string Bytes(const Adjudicator& a) { return CanonicalBytes(BuildReport(a)); }

TEST(PropertyTest, AnyPrefixThenTheRestEqualsTheWhole) {
  for (const char* name : kGames) {
    SCOPED_TRACE(name);
    absl::StatusOr<SgfGame> sgf = ParseSgf(ReadFile(TestDataPath(absl::StrCat("sgf/", name))));
    ASSERT_TRUE(sgf.ok()) << sgf.status();
    const std::vector<v1::Event> events = GameEvents(*sgf, true, true);
    const std::string whole = Bytes(Fold("cn-2002", events, 0, events.size(), Fresh("cn-2002")));
    // Determinism: the same events, folded again, give the same bytes.
    ASSERT_EQ(Bytes(Fold("cn-2002", events, 0, events.size(), Fresh("cn-2002"))), whole);
    for (size_t k = 0; k <= events.size(); k += 7) {
      Adjudicator prefix = Fold("cn-2002", events, 0, k, Fresh("cn-2002"));
      const Adjudicator copy = prefix;  // a snapshot continued elsewhere
      EXPECT_EQ(Bytes(Fold("cn-2002", events, k, events.size(), std::move(prefix))), whole) << k;
      EXPECT_EQ(Bytes(Fold("cn-2002", events, k, events.size(), copy)), whole) << k;
    }
  }
}

// Copies of one fold that go on differently (the service judges each append
// on a copy while readers keep the committed fold; the copies share their
// events, event_log.h) each keep their own events: a correction replays the
// copy's own game, as a fresh fold of the same events does.
TEST(PropertyTest, CopiesThatGoOnDifferentlyEachCorrectTheirOwnGame) {
  absl::StatusOr<SgfGame> sgf = ParseSgf(ReadFile(TestDataPath(absl::StrCat("sgf/", kGames[0]))));
  ASSERT_TRUE(sgf.ok()) << sgf.status();
  const std::vector<v1::Event> events = GameEvents(*sgf, true, false);
  ASSERT_GT(events.size(), 150u);
  // Voids the last of `game`'s events, a second after it.
  auto voiding_last = [](const std::vector<v1::Event>& game) {
    v1::Event v;
    *v.mutable_at() = game.back().at();
    v.mutable_at()->set_seconds(v.at().seconds() + 1);
    v.mutable_event_voided()->set_event(static_cast<uint32_t>(game.size()));
    v.mutable_event_voided()->set_reason("entered on the wrong board");
    return v;
  };
  // Splits at and around the log's chunk boundaries (64 events).
  for (size_t k : {63, 64, 65, 100}) {
    SCOPED_TRACE(k);
    const Adjudicator base = Fold("cn-2002", events, 0, k, Fresh("cn-2002"));
    // One copy goes on through the game; the other takes one event more and
    // then voids it; a third takes that event and the next, voids the
    // later, then goes on.
    std::vector<v1::Event> long_game(events.begin(), events.begin() + static_cast<long>(k + 40));
    std::vector<v1::Event> voided(events.begin(), events.begin() + static_cast<long>(k + 1));
    voided.push_back(voiding_last(voided));
    std::vector<v1::Event> third(events.begin(), events.begin() + static_cast<long>(k + 2));
    third.push_back(voiding_last(third));
    Adjudicator a = Fold("cn-2002", long_game, k, long_game.size(), base);
    Adjudicator b = Fold("cn-2002", voided, k, voided.size(), base);
    Adjudicator c = Fold("cn-2002", third, k, third.size(), base);
    EXPECT_EQ(Bytes(a), Bytes(Fold("cn-2002", long_game, 0, long_game.size(), Fresh("cn-2002"))));
    EXPECT_EQ(Bytes(b), Bytes(Fold("cn-2002", voided, 0, voided.size(), Fresh("cn-2002"))));
    EXPECT_EQ(Bytes(c), Bytes(Fold("cn-2002", third, 0, third.size(), Fresh("cn-2002"))));
    // The base, untouched by its copies, goes on as the whole game.
    EXPECT_EQ(Bytes(Fold("cn-2002", long_game, k, long_game.size(), base)), Bytes(a));
  }
}

// Bad input anywhere in a long game is refused and changes nothing.
TEST(PropertyTest, BadInputAnywhereChangesNothing) {
  absl::StatusOr<SgfGame> sgf = ParseSgf(ReadFile(TestDataPath(absl::StrCat("sgf/", kGames[1]))));
  ASSERT_TRUE(sgf.ok());
  const std::vector<v1::Event> events = GameEvents(*sgf, true, true);
  Adjudicator a = Fresh("cn-2002");
  for (size_t i = 0; i < events.size(); ++i) {
    if (i >= 2) {
      const std::string before = Bytes(a);
      std::vector<v1::Event> bad;
      v1::Event earlier = events[i - 1];  // a kind that is fine, but too early
      earlier.mutable_at()->set_seconds(earlier.at().seconds() - 3600);
      bad.push_back(earlier);
      v1::Event off = events[i - 1];
      off.mutable_move()->set_color(v1::BLACK);
      off.mutable_move()->set_point("Z99");
      bad.push_back(off);
      v1::Event decision = events[i - 1];
      decision.mutable_arbiter_decision()->set_ruling(999);
      decision.mutable_arbiter_decision()->set_choice("LOSS");
      bad.push_back(decision);
      for (const v1::Event& e : bad) {
        EXPECT_FALSE(a.Apply(e).ok()) << i << ": " << e.ShortDebugString();
        ASSERT_EQ(Bytes(a), before) << i << ": " << e.ShortDebugString();
      }
    }
    ASSERT_TRUE(a.Apply(events[i]).ok()) << i;
  }
}

TEST(PropertyTest, OrdinaryGamesDifferUnderCn1988OnlyByKomi) {
  for (const char* name : kGames) {
    SCOPED_TRACE(name);
    absl::StatusOr<SgfGame> sgf = ParseSgf(ReadFile(TestDataPath(absl::StrCat("sgf/", name))));
    ASSERT_TRUE(sgf.ok());
    const std::vector<v1::Event> events = GameEvents(*sgf, false, true);
    const Adjudicator a = Fold("cn-2002", events, 0, events.size(), Fresh("cn-2002"));
    const Adjudicator b = Fold("cn-1988", events, 0, events.size(), Fresh("cn-1988"));
    EXPECT_TRUE(a.rulings().empty());
    EXPECT_TRUE(b.rulings().empty());
    ASSERT_NE(a.result(), nullptr);
    ASSERT_NE(b.result(), nullptr);
    EXPECT_EQ(a.result()->black_count(), b.result()->black_count());
    auto signed_margin = [](const v1::Result& r) {
      return r.outcome() == v1::Result::WHITE_WINS ? -r.margin_stones() : r.margin_stones();
    };
    // 3¾ against 2¾: Black does exactly one stone better under cn-1988.
    EXPECT_DOUBLE_EQ(signed_margin(*b.result()) - signed_margin(*a.result()), 1.0);
    EXPECT_EQ(a.State().board_size(), b.State().board_size());
    for (int i = 0; i < a.State().board_size(); ++i)
      EXPECT_EQ(a.State().board(i), b.State().board(i));
  }
}

TEST(PropertyTest, IncidentsDifferUnderCn1988OnlyWhereTheEncodingsDiffer) {
  absl::StatusOr<SgfGame> sgf = ParseSgf(ReadFile(TestDataPath(absl::StrCat("sgf/", kGames[0]))));
  ASSERT_TRUE(sgf.ok());
  const std::vector<v1::Event> events = GameEvents(*sgf, true, false);
  Adjudicator a = Fresh("cn-2002");
  Adjudicator b = Fresh("cn-1988");
  for (size_t i = 0; i < events.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("event ", i + 1));
    absl::StatusOr<std::vector<v1::Ruling>> ra = a.Apply(events[i]);
    absl::StatusOr<std::vector<v1::Ruling>> rb = b.Apply(events[i]);
    ASSERT_TRUE(ra.ok() && rb.ok());
    // Every incident here is encoded in both rulesets: the same events are
    // ruled on, each under its own ruleset's clauses.
    EXPECT_EQ(ra->size(), rb->size());
    for (const v1::Ruling& r : *ra) EXPECT_EQ(r.clause().rfind("cn-2002/", 0), 0u) << r.clause();
    for (const v1::Ruling& r : *rb) EXPECT_EQ(r.clause().rfind("cn-1988/", 0), 0u) << r.clause();
    // None of them changes the board differently.
    const v1::GameState sa = a.State();
    const v1::GameState sb = b.State();
    ASSERT_EQ(sa.board_size(), sb.board_size());
    for (int row = 0; row < sa.board_size(); ++row) ASSERT_EQ(sa.board(row), sb.board(row));
    EXPECT_EQ(sa.to_move(), sb.to_move());
  }
  // Where they differ: 2002 gives penalty stones with its warnings, and
  // 1988 refers the phone ring (25.1) instead of warning.
  EXPECT_EQ(a.State().penalty_stones().white(), 1);
  EXPECT_EQ(b.State().penalty_stones().white(), 0);
  EXPECT_EQ(a.State().warnings().black(), 1);
  EXPECT_EQ(b.State().warnings().black(), 1);
}

}  // namespace
}  // namespace arbiter::testing
