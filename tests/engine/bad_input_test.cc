// Bad input (DOMAIN.md §3): refused with a clear error, and nothing recorded:
// the adjudicator's whole report is the same before and after.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "adjudicator/engine/new_input.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/engine/report.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

struct Case {
  std::string name;
  std::vector<std::pair<int, std::string>> before;  // accepted
  std::pair<int, std::string> bad;
  absl::StatusCode code;
  std::string says;  // part of the message
};

std::vector<std::pair<int, std::string>> Opening() {
  return {{0, Created("cn-2002")}, {0, R"("gameStarted": {})"}, {10, Move("BLACK", "Q16")}};
}

std::vector<std::pair<int, std::string>> With(std::vector<std::pair<int, std::string>> a,
                                              std::vector<std::pair<int, std::string>> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Case> Cases() {
  using absl::StatusCode;
  return {
      {"event before gameCreated",
       {},
       {0, R"("gameStarted": {})"},
       StatusCode::kFailedPrecondition,
       "first event must be gameCreated"},
      {"a second gameCreated",
       Opening(),
       {20, Created("cn-2002")},
       StatusCode::kFailedPrecondition,
       "already created"},
      {"unsupported board size",
       {},
       {0, R"("gameCreated": {"gameId": "x", "boardSize": 21})"},
       StatusCode::kInvalidArgument,
       "boardSize 21"},
      {"a table past 9999",
       {},
       {0, R"("gameCreated": {"gameId": "x", "table": 10000})"},
       StatusCode::kInvalidArgument,
       "table 10000 is not 1-9999"},
      {"komi not in quarter stones",
       {},
       {0, R"("gameCreated": {"gameId": "x", "komiStones": 3.3})"},
       StatusCode::kInvalidArgument,
       "komiStones"},
      {"point off the board",
       Opening(),
       {20, Move("WHITE", "Z25")},
       StatusCode::kInvalidArgument,
       "move.point"},
      {"point column I does not exist",
       Opening(),
       {20, Move("WHITE", "I5")},
       StatusCode::kInvalidArgument,
       "move.point"},
      {"point already occupied",
       Opening(),
       {20, Move("WHITE", "Q16")},
       StatusCode::kInvalidArgument,
       "occupied"},
      {"time earlier than the previous event's",
       Opening(),
       {5, Move("WHITE", "D4")},
       StatusCode::kInvalidArgument,
       "earlier than the previous"},
      {"event after the result is final",
       With(Opening(), {{20, Of("resign", "WHITE")}}),
       {30, Move("WHITE", "D4")},
       StatusCode::kFailedPrecondition,
       "result is final"},
      {"no colour",
       Opening(),
       {20, R"("move": {"point": "D4"})"},
       StatusCode::kInvalidArgument,
       "BLACK or WHITE"},
      {"no kind",
       Opening(),
       {20, R"("idempotencyKey": "k")"},
       StatusCode::kInvalidArgument,
       "no kind"},
      {"misconduct decision the clause does not allow",
       Opening(),
       {20, R"("misconduct": {"color": "WHITE", "kind": "DISTURBANCE", "decision": "DRAW"})"},
       StatusCode::kInvalidArgument,
       "cn-2002/23.3 allows WARNING, LOSS; not DRAW"},
      {"arbiter choice the clause does not allow",
       With(Opening(), {{20, R"("misconduct": {"color": "WHITE", "kind": "CHEATING"})"}}),
       {30, R"("arbiterDecision": {"ruling": 1, "choice": "WARNING"})"},
       StatusCode::kInvalidArgument,
       "cn-2002/23.1 allows LOSS, BOTH_LOSE; not WARNING"},
      {"decision for a ruling that does not exist",
       Opening(),
       {20, R"("arbiterDecision": {"ruling": 7, "choice": "LOSS"})"},
       StatusCode::kNotFound,
       "there is no ruling 7"},
      {"decision for a ruling that is not pending",
       With(Opening(), {{20, Of("phoneRang", "WHITE")}}),
       {30, R"("arbiterDecision": {"ruling": 1, "choice": "LOSS"})"},
       StatusCode::kFailedPrecondition,
       "ruling 1 is not pending"},
      {"takeback with no move of one's own to take back",
       Opening(),
       {20, Of("takeback", "WHITE")},
       StatusCode::kFailedPrecondition,
       "takeback"},
      {"dead stones before two passes",
       Opening(),
       {20, R"("deadStones": {"points": []})"},
       StatusCode::kFailedPrecondition,
       "two passes"},
      {"dead stone on an empty point",
       With(Opening(), {{20, Of("pass", "WHITE")}, {30, Of("pass", "BLACK")}}),
       {40, R"("deadStones": {"points": ["D4"]})"},
       StatusCode::kInvalidArgument,
       "deadStones"},
      {"gameStarted twice",
       Opening(),
       {20, R"("gameStarted": {})"},
       StatusCode::kFailedPrecondition,
       "already started"},
      {"resumed without adjournment",
       Opening(),
       {20, R"("resumed": {})"},
       StatusCode::kFailedPrecondition,
       "not adjourned"},
      {"move during an adjournment",
       With(Opening(), {{20, R"("adjourned": {})"}}),
       {30, Move("WHITE", "D4")},
       StatusCode::kFailedPrecondition,
       "adjourned"},
      {"capture error of no kind",
       Opening(),
       {20, R"("captureError": {"color": "WHITE", "points": ["Q16"]})"},
       StatusCode::kInvalidArgument,
       "captureError.kind"},
      {"capture error naming an empty point",
       Opening(),
       {20, R"("captureError": {"color": "BLACK", "kind": "REMOVED_LIVE", "points": ["A1"]})"},
       StatusCode::kInvalidArgument,
       "A1 has never held a WHITE stone"},
      {"capture error naming the player's own stone",
       Opening(),
       {20, R"("captureError": {"color": "BLACK", "kind": "REMOVED_LIVE", "points": ["Q16"]})"},
       StatusCode::kInvalidArgument,
       "Q16 has never held a WHITE stone"},
      {"capture error naming a stone twice",
       Opening(),
       {20,
        R"("captureError": {"color": "WHITE", "kind": "REMOVED_LIVE", "points": ["Q16", "Q16"]})"},
       StatusCode::kInvalidArgument,
       "Q16 is named twice"},
      {"capture error naming no stone",
       Opening(),
       {20, R"("captureError": {"color": "WHITE", "kind": "NOT_REMOVED"})"},
       StatusCode::kInvalidArgument,
       "captureError.points"},
      {"deliberate displacement by nobody",
       Opening(),
       {20, R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], "deliberate": true})"},
       StatusCode::kInvalidArgument,
       "byColor"},
      {"agreed displacement of an empty point",
       Opening(),
       {20,
        R"("stonesDisplaced": {"points": [{"from": "D4", "to": "D5"}], "agreement": "STANDS"})"},
       StatusCode::kInvalidArgument,
       "no stone at D4"},
  };
}

TEST(BadInputTest, RefusedAndNothingRecorded) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Game g("cn-2002");
    for (const auto& [t, kind] : c.before) ASSERT_TRUE(g.Apply(t, kind).ok()) << kind;
    const uint32_t events = g.a().events();
    const std::string before = g.a().events() == 0 ? "" : BuildReport(g.a()).SerializeAsString();
    const absl::Status s = g.Apply(c.bad.first, c.bad.second);
    EXPECT_EQ(s.code(), c.code) << s;
    EXPECT_NE(s.message().find(c.says), absl::string_view::npos) << s;
    EXPECT_EQ(g.a().events(), events);
    if (events > 0) {
      v1::AdjudicationReport a, b;
      ASSERT_TRUE(a.ParseFromString(before));
      b = BuildReport(g.a());
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b))
          << a.ShortDebugString() << "\n"
          << b.ShortDebugString();
    }
  }
}

// After the result, only a decision on a ruling still pending is accepted.
TEST(BadInputTest, DecisionAfterTheResultIsAccepted) {
  Game g("cn-2002");
  for (const auto& [t, kind] : Opening()) ASSERT_TRUE(g.Apply(t, kind).ok());
  ASSERT_TRUE(g.Apply(20, R"("misconduct": {"color": "WHITE", "kind": "DISTURBANCE"})").ok());
  ASSERT_TRUE(g.Apply(30, Of("resign", "BLACK")).ok());
  ASSERT_NE(g.a().result(), nullptr);
  ASSERT_TRUE(g.Apply(40, R"("arbiterDecision": {"ruling": 1, "choice": "WARNING"})").ok());
  EXPECT_EQ(g.a().State().warnings().white(), 1);
  EXPECT_EQ(g.a().result()->sgf(), "W+R");
}

// DOMAIN.md §3: a time written to the second ("09:00:00Z", as people write
// it) names that whole second, so it is not earlier than a previous event
// stamped inside it (a server's creation, to the nanosecond); the event is
// taken at the later instant, and the clocks count from there.
TEST(BadInputTest, ATimeToTheSecondIsNotEarlierThanAStampInsideIt) {
  Game g("cn-2002");
  v1::Event created = Ev(0, Created("cn-2002"));
  created.mutable_at()->set_nanos(750'000'000);  // 09:00:00.75
  ASSERT_TRUE(g.Apply(created).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());  // 09:00:00Z
  EXPECT_EQ(g.a().State().as_of().seconds(), UnixAt(0));
  EXPECT_EQ(g.a().State().as_of().nanos(), 750'000'000);
  // Black's clock runs from 09:00:00.75: 9.25 s to the move at 09:00:10.
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(20, Move("WHITE", "D4")).ok());
  EXPECT_EQ(FromProto(g.a().State().clocks().black().used()), absl::Milliseconds(9250));
  // A time with a fraction is what it says, and a whole second before the
  // previous event's second is earlier: both still refused.
  v1::Event fraction = Ev(20, Move("BLACK", "Q4"));
  fraction.mutable_at()->set_nanos(500'000'000);
  ASSERT_TRUE(g.Apply(fraction).ok());  // 09:00:20.5
  fraction = Ev(20, Move("WHITE", "D16"));
  fraction.mutable_at()->set_nanos(250'000'000);
  absl::Status s = g.Apply(fraction);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("earlier than the previous event's"), std::string::npos) << s;
  v1::Event stamped = Ev(21, Move("WHITE", "D16"));
  stamped.mutable_at()->set_nanos(1);
  ASSERT_TRUE(g.Apply(stamped).ok());  // 09:00:21.000000001
  s = g.Apply(20, Move("BLACK", "C3"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(g.a().events(), 6u);
}

// A binary (gRPC) client can send what JSON cannot express: times and
// durations outside the ranges google.protobuf defines. They are refused
// with the field named, as the JSON decoder refuses them, instead of
// overflowing the clock's arithmetic.
TEST(BadInputTest, TimesOutsideTheProtobufRangesAreRefused) {
  {
    Game g("cn-2002");
    v1::Event created = Ev(0, Created("cn-2002"));
    created.mutable_game_created()->mutable_time_control()->mutable_main_time()->set_seconds(
        INT64_MAX);
    absl::Status s = g.Apply(created);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_NE(s.message().find("a timeControl duration is outside the range"), std::string::npos)
        << s;
    created = Ev(0, Created("cn-2002"));
    created.mutable_game_created()->mutable_time_control()->mutable_main_time()->set_nanos(
        1'000'000'000);
    EXPECT_EQ(g.Apply(created).code(), absl::StatusCode::kInvalidArgument);
    created = Ev(0, Created("cn-2002"));
    created.mutable_game_created()->mutable_scheduled_start()->set_seconds(INT64_MIN);
    s = g.Apply(created);
    EXPECT_NE(s.message().find("scheduledStart is outside the range"), std::string::npos) << s;
    EXPECT_EQ(g.a().events(), 0u);
  }
  Game g("cn-2002");
  for (const auto& [t, kind] : Opening()) ASSERT_TRUE(g.Apply(t, kind).ok());
  v1::Event late = Ev(20, Move("WHITE", "D4"));
  late.mutable_at()->set_seconds(253402300800);  // 10000-01-01T00:00:00Z
  absl::Status s = g.Apply(late);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("`at`) is outside the range"), std::string::npos) << s;
  v1::Event malfunction = Ev(20, R"("clockMalfunction": {"errorPerHour": "1s"})");
  malfunction.mutable_clock_malfunction()->mutable_black_used()->set_seconds(315576000001);
  s = g.Apply(malfunction);
  EXPECT_NE(s.message().find("clockMalfunction durations is outside"), std::string::npos) << s;
  EXPECT_EQ(g.a().events(), 3u);
}

}  // namespace
// A time control with two systems, or one counting nothing, is bad input
// for a game being created (CheckNewGame: the server, `adjudicate` and
// `record` refuse it), but a game recorded with one before the check is
// folded as it always was, byo-yomi first: `verify` re-derives its rulings.
TEST(BadInputTest, ATimeControlANewGameMayNotHaveStillFoldsWhenRecorded) {
  const std::string both = R"({"mainTime": "600s", "byoYomi": {"periods": 3, "periodTime": "30s"},)"
                           R"( "movesInTime": {"moves": 25, "period": "600s"}})";
  for (const std::string& tc :
       {both,
        std::string(R"({"mainTime": "600s", "byoYomi": {"periods": 0, "periodTime": "30s"}})"),
        std::string(R"({"mainTime": "600s", "byoYomi": {"periods": 3, "periodTime": "0s"}})"),
        std::string(R"({"mainTime": "600s", "movesInTime": {"moves": 0, "period": "600s"}})"),
        std::string(R"({"mainTime": "600s", "movesInTime": {"moves": 25, "period": "0s"}})")}) {
    SCOPED_TRACE(tc);
    const v1::Event created = Ev(0, Created("cn-2002", "SAME_SITE", tc));
    const absl::Status refused = CheckNewGame(created.game_created());
    EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(refused.message(), "timeControl")) << refused;
    Game g("cn-2002");
    EXPECT_TRUE(g.Apply(created).ok());
  }
  // The recorded game with both is timed by its byo-yomi: 600 s of main time
  // and three periods of 30 s, Black's flag falling at the third.
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002", "SAME_SITE", both)).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(700, Move("BLACK", "Q16")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/22.5");
}

}  // namespace arbiter::testing

namespace arbiter::testing {
namespace {

// A setup in which a chain has no liberty (a white stone in the corner
// with black on both its sides; a black pair surrounded) is a position no
// play reaches (art. 4): refused for a new game, naming a stone of the
// chain, while a setup whose every chain breathes passes; a game recorded
// with one before the check still folds.
TEST(BadInputTest, ASetupWithAChainWithoutLibertiesIsRefusedForANewGame) {
  v1::Event created = Ev(0, Created("cn-2002"));
  v1::Setup* setup = created.mutable_game_created()->mutable_setup();
  for (const char* p : {"B1", "A2"}) setup->add_black(p);
  setup->add_white("A1");
  absl::Status refused = CheckNewGame(created.game_created());
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(),
                                "setup.white: the white stone at A1 and the stones joined to it "
                                "have no liberty"))
      << refused;
  setup->Clear();
  for (const char* p : {"K10", "K11"}) setup->add_black(p);
  for (const char* p : {"J10", "J11", "L10", "L11", "K9", "K12"}) setup->add_white(p);
  refused = CheckNewGame(created.game_created());
  EXPECT_TRUE(absl::StrContains(refused.message(), "the black stone at K10")) << refused;
  // Take one surrounding stone away: the pair has a liberty, and every
  // white stone has its own.
  setup->mutable_white()->RemoveLast();
  EXPECT_TRUE(CheckNewGame(created.game_created()).ok());
  // Recorded before the check: folded as it always was.
  setup->add_white("K12");
  Game g("cn-2002");
  EXPECT_TRUE(g.Apply(created).ok());
}

// A playerArrived once the clocks have started, for a player nobody awaits
// (the wrong colour, or twice), is refused as new input: the fold takes it
// and rules nothing, so the absent player would forfeit at the limit.
// Before the start it is attendance; after a resumption either player may
// come back late; a player forfeited for lateness may still sit down.
TEST(BadInputTest, AnArrivalNobodyAwaitsIsRefusedAsNewInput) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  EXPECT_TRUE(CheckNewEvent(g.a(), Ev(0, Of("playerArrived", "BLACK"))).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["WHITE"]})").ok());
  const v1::Event wrong = Ev(300, Of("playerArrived", "BLACK"));
  absl::Status refused = CheckNewEvent(g.a(), wrong);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(), "playerArrived: nobody awaits Black"))
      << refused;
  Game recorded = g;  // recorded before the check: folded as it always was
  EXPECT_TRUE(recorded.Apply(wrong).ok());
  EXPECT_TRUE(recorded.rulings().empty());
  const v1::Event white = Ev(300, Of("playerArrived", "WHITE"));
  EXPECT_TRUE(CheckNewEvent(g.a(), white).ok());
  ASSERT_TRUE(g.Apply(white).ok());
  ASSERT_EQ(g.rulings().size(), 1u);  // late within the limit
  EXPECT_TRUE(
      absl::StrContains(CheckNewEvent(g.a(), Ev(310, Of("playerArrived", "WHITE"))).message(),
                        "nobody awaits White"));
  // Away since a resumption: each may come back late, once.
  ASSERT_TRUE(g.Apply(320, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(330, R"("adjourned": {})").ok());
  ASSERT_TRUE(g.Apply(3600, R"("resumed": {})").ok());
  EXPECT_TRUE(CheckNewEvent(g.a(), Ev(3700, Of("playerArrived", "BLACK"))).ok());
  ASSERT_TRUE(g.Apply(3700, Of("playerArrived", "WHITE")).ok());
  EXPECT_FALSE(CheckNewEvent(g.a(), Ev(3710, Of("playerArrived", "WHITE"))).ok());
  // Playing is arriving: Black seen at the board is awaited no more.
  ASSERT_TRUE(g.Apply(3720, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g.Apply(3730, Move("BLACK", "Q4")).ok());
  EXPECT_FALSE(CheckNewEvent(g.a(), Ev(3740, Of("playerArrived", "BLACK"))).ok());

  // Forfeited at the limit (the server's report), White may still sit down.
  Game late("cn-2002");
  ASSERT_TRUE(late.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(late.Apply(0, R"("gameStarted": {"absent": ["WHITE"]})").ok());
  ASSERT_TRUE(late.Apply(901, Of("timeExpired", "WHITE")).ok());
  ASSERT_NE(late.a().result(), nullptr);
  EXPECT_TRUE(CheckNewEvent(late.a(), Ev(1000, Of("playerArrived", "WHITE"))).ok());
  EXPECT_FALSE(CheckNewEvent(late.a(), Ev(1000, Of("playerArrived", "BLACK"))).ok());
}

// Displaced stones left standing (by the players' agreement, or by the
// chief arbiter's decision on a dispute) where they take a chain's last
// liberty are refused as new input, naming a stone of the chain; put back,
// or standing elsewhere, they are taken; the fold takes the refused ones
// from a record made before the check.
TEST(BadInputTest, DisplacedStonesStandingWithoutLibertiesAreRefusedAsNewInput) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "B1")).ok());
  ASSERT_TRUE(g.Apply(20, Move("WHITE", "A1")).ok());
  ASSERT_TRUE(g.Apply(30, Move("BLACK", "C3")).ok());
  ASSERT_TRUE(g.Apply(40, Move("WHITE", "Q16")).ok());
  const std::string moved = R"("stonesDisplaced": {"points": [{"from": "C3", "to": "A2"}], )";
  const v1::Event stands = Ev(50, absl::StrCat(moved, R"("agreement": "STANDS"})"));
  absl::Status refused = CheckNewEvent(g.a(), stands);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(),
                                "leaves the white stone at A1 and the stones joined to it without "
                                "a liberty"))
      << refused;
  EXPECT_TRUE(CheckNewEvent(g.a(), Ev(50, absl::StrCat(moved, R"("agreement": "RESTORE"})"))).ok());
  EXPECT_TRUE(CheckNewEvent(g.a(), Ev(50, R"("stonesDisplaced": {"points": [{"from": "C3", )"
                                          R"("to": "D5"}], "agreement": "STANDS"})"))
                  .ok());
  Game recorded = g;
  EXPECT_TRUE(recorded.Apply(stands).ok());

  // Disputed: the chief arbiter's decision that they stand is refused, that
  // they are put back is taken.
  ASSERT_TRUE(g.Apply(Ev(50, absl::StrCat(moved, R"("agreement": "NONE"})"))).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  ASSERT_TRUE(g.rulings()[0].pending());
  v1::Event decision = Ev(60, R"("arbiterDecision": {"ruling": 1, "choice": "STANDS"})");
  decision.set_authority(v1::CHIEF_ARBITER);
  refused = CheckNewEvent(g.a(), decision);
  EXPECT_TRUE(absl::StrContains(refused.message(),
                                "arbiterDecision: letting the displaced stones stand leaves the "
                                "white stone at A1"))
      << refused;
  decision.mutable_arbiter_decision()->set_choice("STONE_RESTORED");
  EXPECT_TRUE(CheckNewEvent(g.a(), decision).ok());
}

// The `field` of the reason `s` carries (refusal_reason.h): "(none)"
// without one, "(no FIELD)" without that field.
std::string ReasonField(const absl::Status& s, const std::string& field) {
  std::optional<google::protobuf::Struct> r = RefusalReasonOf(s);
  if (!r.has_value()) return "(none)";
  auto it = r->fields().find(field);
  return it == r->fields().end() ? "(no " + field + ")" : it->second.string_value();
}

// The refusals an arbiter meets at the board carry their reason and
// fields (refusal_reason.h) beside the English sentence, for the floor's
// phone to word in its reader's language.
TEST(BadInputTest, TheRefusalsAtTheBoardCarryTheirReason) {
  const auto reason = ReasonField;
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  const absl::Status arrival = CheckNewEvent(g.a(), Ev(10, Of("playerArrived", "WHITE")));
  EXPECT_EQ(reason(arrival, "reason"), "ARRIVAL_NOT_AWAITED");
  EXPECT_EQ(reason(arrival, "color"), "WHITE");
  ASSERT_TRUE(g.Apply(60, Move("BLACK", "Q16")).ok());
  const absl::Status earlier = g.Apply(30, Of("phoneRang", "WHITE"));
  EXPECT_EQ(reason(earlier, "reason"), "TIME_BEFORE_PREVIOUS");
  EXPECT_EQ(reason(earlier, "at"), At(30));
  EXPECT_EQ(reason(earlier, "previous"), At(60));
  // A decision: the chief arbiter's to make, then made already.
  ASSERT_TRUE(g.Apply(64, R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], )"
                          R"("agreement": "NONE"})")
                  .ok());
  const uint32_t pending = g.rulings().back().number();
  ASSERT_TRUE(g.rulings().back().pending());
  v1::Event decision = Ev(66, absl::StrCat(R"("arbiterDecision": {"ruling": )", pending,
                                           R"(, "choice": "STONE_RESTORED"})"));
  decision.set_authority(v1::ARBITER);
  const absl::Status not_mine = g.Apply(decision);
  EXPECT_EQ(reason(not_mine, "reason"), "CHIEF_ARBITERS_DECISION") << not_mine;
  EXPECT_EQ(reason(not_mine, "ruling"), absl::StrCat(pending));
  decision.set_authority(v1::CHIEF_ARBITER);
  ASSERT_TRUE(g.Apply(decision).ok());
  const absl::Status again = g.Apply(decision);
  EXPECT_EQ(reason(again, "reason"), "RULING_NOT_PENDING") << again;
  ASSERT_TRUE(g.Apply(70, Of("resign", "WHITE")).ok());
  const absl::Status after = g.Apply(80, Of("phoneRang", "WHITE"));
  EXPECT_EQ(after.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(reason(after, "reason"), "RESULT_FINAL");
  EXPECT_EQ(reason(after, "result"), "B+R");
  v1::Event cancel = Ev(90, R"("gameCancelled": {"reason": "wrong pair"})");
  cancel.set_authority(v1::CHIEF_ARBITER);
  ASSERT_TRUE(g.Apply(cancel).ok());
  const absl::Status cancelled = g.Apply(100, Of("phoneRang", "WHITE"));
  EXPECT_EQ(reason(cancelled, "reason"), "GAME_CANCELLED");
  EXPECT_EQ(reason(cancelled, "cause"), "wrong pair");
  // Any other refusal carries none: its message is all there is.
  Game h("cn-2002");
  ASSERT_TRUE(h.Apply(0, Created("cn-2002")).ok());
  const absl::Status off = h.Apply(10, Move("BLACK", "Z99"));
  EXPECT_FALSE(off.ok());
  EXPECT_EQ(reason(off, "reason"), "(none)");
}

// Creates `g` (cn-2002, timed), starts it and applies `record` in order.
void StartThenPlay(Game& g, const std::vector<std::pair<int, std::string>>& record) {
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  for (const auto& [t, kind] : record) ASSERT_TRUE(g.Apply(t, kind).ok()) << kind;
}

// The floor's incidents the record contradicts (the wrong colour, a point
// the board does not show) carry their reason too: the phone words them.
TEST(BadInputTest, TheFloorsIncidentsTheRecordContradictsCarryTheirReason) {
  Game g("cn-2002");
  StartThenPlay(g, {{10, Move("BLACK", "Q16")}, {20, Move("WHITE", "D4")}});
  auto refused = [&](const std::string& kind) {
    const absl::Status s = g.Apply(50, kind);
    EXPECT_FALSE(s.ok()) << kind;
    return s;
  };
  absl::Status s = refused(Of("takeback", "BLACK"));
  EXPECT_EQ(ReasonField(s, "reason"), "TAKEBACK_NOT_LAST_MOVE") << s;
  EXPECT_EQ(ReasonField(s, "color"), "BLACK");
  s = refused(R"("stoneDropped": {"color": "WHITE", "point": "C3"})");
  EXPECT_EQ(ReasonField(s, "reason"), "DROPPED_NOT_TO_MOVE") << s;
  EXPECT_EQ(ReasonField(s, "color"), "WHITE");
  s = refused(
      R"("stonesDisplaced": {"points": [{"from": "K10", "to": "K11"}], "agreement": "NONE"})");
  EXPECT_EQ(ReasonField(s, "reason"), "DISPLACED_NO_STONE") << s;
  EXPECT_EQ(ReasonField(s, "point"), "K10");
  s = refused(
      R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "D4"}], "agreement": "NONE"})");
  EXPECT_EQ(ReasonField(s, "reason"), "DISPLACED_CANNOT_MOVE") << s;
  s = refused(R"("captureError": {"color": "BLACK", "kind": "REMOVED_LIVE", "points": ["K10"]})");
  EXPECT_EQ(ReasonField(s, "reason"), "CAPTURE_NEVER_HELD") << s;
  EXPECT_EQ(ReasonField(s, "point"), "K10");
  EXPECT_EQ(ReasonField(s, "color"), "WHITE");
  s = refused(R"("captureError": {"color": "BLACK", "kind": "NOT_REMOVED", "points": ["D4"]})");
  EXPECT_EQ(ReasonField(s, "reason"), "CAPTURE_HAS_LIBERTY") << s;
  EXPECT_EQ(ReasonField(s, "point"), "D4");
  EXPECT_EQ(ReasonField(s, "color"), "WHITE");
  EXPECT_NE(ReasonField(s, "liberty"), "(no liberty)");
  s = refused(Of("timeExpired", "WHITE"));
  EXPECT_EQ(ReasonField(s, "reason"), "FLAG_CLOCK_NOT_RUNNING") << s;
  EXPECT_EQ(ReasonField(s, "color"), "WHITE");
  // Once play has ended with two passes, either colour's dropped stone or
  // sealed move is refused for that, not for a colour.
  Game passed("cn-2002");
  StartThenPlay(passed, {{10, Of("pass", "BLACK")}, {20, Of("pass", "WHITE")}});
  for (const char* color : {"BLACK", "WHITE"}) {
    s = passed.Apply(30,
                     absl::StrCat(R"("stoneDropped": {"color": ")", color, R"(", "point": "C3"})"));
    EXPECT_EQ(ReasonField(s, "reason"), "PLAY_ENDED") << s;
    EXPECT_NE(s.message().find("two passes in a row"), absl::string_view::npos) << s;
    s = passed.Apply(30, Of("moveSealed", color));
    EXPECT_EQ(ReasonField(s, "reason"), "PLAY_ENDED") << s;
  }
  s = refused(Of("moveSealed", "WHITE"));
  EXPECT_EQ(ReasonField(s, "reason"), "SEALED_NOT_TO_MOVE") << s;
  EXPECT_EQ(ReasonField(s, "color"), "WHITE");
  s = refused(R"("resumed": {})");
  EXPECT_EQ(ReasonField(s, "reason"), "NOT_ADJOURNED") << s;
  ASSERT_TRUE(g.Apply(40, R"("adjourned": {})").ok());
  s = refused(R"("adjourned": {})");
  EXPECT_EQ(ReasonField(s, "reason"), "ALREADY_ADJOURNED") << s;
  s = refused(Of("moveSealed", "BLACK"));
  EXPECT_EQ(ReasonField(s, "reason"), "ALREADY_ADJOURNED") << s;
  // Black seals, the game resumes: until the sealed move is played, no
  // other is sealed, by either colour.
  Game sealed("cn-2002");
  StartThenPlay(sealed, {{10, Move("BLACK", "Q16")},
                         {20, Move("WHITE", "D4")},
                         {30, Of("moveSealed", "BLACK")},
                         {40, R"("resumed": {})"}});
  for (const char* color : {"BLACK", "WHITE"}) {
    s = sealed.Apply(50, Of("moveSealed", color));
    EXPECT_EQ(ReasonField(s, "reason"), "SEALED_NOT_OPENED") << s;
    EXPECT_EQ(ReasonField(s, "color"), "BLACK");
  }

  // The floor's dead stones: before two passes, at an empty point, part of
  // a chain; and in a game recorded without its moves.
  Game counting("cn-2002");
  StartThenPlay(counting, {{10, Move("BLACK", "Q16")},
                           {20, Move("WHITE", "D4")},
                           {30, Move("BLACK", "Q15")},
                           {40, Move("WHITE", "D5")}});
  s = counting.Apply(50, R"("deadStones": {"points": ["D4", "D5"]})");
  EXPECT_EQ(ReasonField(s, "reason"), "PLAY_NOT_ENDED") << s;
  ASSERT_TRUE(counting.Apply(50, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(counting.Apply(60, Of("pass", "WHITE")).ok());
  s = counting.Apply(70, R"("deadStones": {"points": ["k10"]})");
  EXPECT_EQ(ReasonField(s, "reason"), "DEAD_STONE_EMPTY") << s;
  EXPECT_EQ(ReasonField(s, "point"), "K10");
  s = counting.Apply(70, R"("deadStones": {"points": ["D4"]})");
  EXPECT_EQ(ReasonField(s, "reason"), "DEAD_CHAIN_INCOMPLETE") << s;
  EXPECT_EQ(ReasonField(s, "point"), "D4");
  EXPECT_EQ(ReasonField(s, "missing"), "D5");
  ASSERT_TRUE(counting.Apply(70, R"("deadStones": {"points": ["D4", "D5"]})").ok());
  Game unrecorded("cn-2002");
  StartThenPlay(unrecorded, {});
  s = unrecorded.Apply(10, R"("deadStones": {"points": []})");
  EXPECT_EQ(ReasonField(s, "reason"), "DEAD_STONES_WITHOUT_MOVES") << s;

  Game untimed("cn-2002");
  ASSERT_TRUE(untimed.Apply(0, Created("cn-2002", "SAME_SITE", "")).ok());
  ASSERT_TRUE(untimed.Apply(0, R"("gameStarted": {})").ok());
  s = untimed.Apply(10, Of("timeExpired", "BLACK"));
  EXPECT_EQ(ReasonField(s, "reason"), "FLAG_UNTIMED") << s;
  s = untimed.Apply(10, Of("moveSealed", "BLACK"));
  EXPECT_EQ(ReasonField(s, "reason"), "SEALED_WITHOUT_MOVES") << s;
  ASSERT_TRUE(untimed.Apply(20, Of("resign", "BLACK")).ok());
  s = untimed.Apply(30, R"("countRecorded": {"blackCount": 185})");
  EXPECT_EQ(ReasonField(s, "reason"), "COUNT_AFTER_OTHER_RESULT") << s;
  EXPECT_EQ(ReasonField(s, "result"), "W+R");

  // A count recorded without the moves: no count, then one, then another.
  Game counted("cn-2002");
  StartThenPlay(counted, {});
  s = counted.Apply(10, R"("countRecorded": {"blackCount": 185.3})");
  EXPECT_EQ(ReasonField(s, "reason"), "COUNT_NOT_HALVES") << s;
  EXPECT_EQ(ReasonField(s, "points"), "361");
  ASSERT_TRUE(counted.Apply(20, R"("countRecorded": {"blackCount": 185})").ok());
  s = counted.Apply(30, R"("countRecorded": {"blackCount": 186})");
  EXPECT_EQ(ReasonField(s, "reason"), "COUNT_CONTRADICTS") << s;
  EXPECT_NE(ReasonField(s, "count"), ReasonField(s, "counted"));
}

}  // namespace
}  // namespace arbiter::testing
