// Standings that cannot credit the wrong player or count what no longer
// stands: a recorded game checked against its pairing, warnings overturned
// on appeal, and the names a recorded game may carry.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/tournament/game_facts.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/standings.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Decided;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kBlack;
using testing::kDraw;
using testing::Row;
using ::testing::SizeIs;
using testing::TournamentBuilder;

v1::Ruling Warning(uint32_t number, v1::Ruling::Party against) {
  v1::Ruling r;
  r.set_number(number);
  r.set_against(against);
  r.add_sanctions(v1::WARNING);
  return r;
}

TEST(CountWarnings, AWarningOverturnedOnAppealDoesNotCount) {
  // 1: White warned. 2: the chief arbiter overturns it (16.3-16.4).
  // 3: Black warned, 4: both warned, 5: a pending warning (not decided).
  google::protobuf::RepeatedPtrField<v1::Ruling> history;
  *history.Add() = Warning(1, v1::Ruling::WHITE);
  v1::Ruling overturn;
  overturn.set_number(2);
  overturn.set_appealed(1);
  overturn.set_supersedes(1);
  *history.Add() = overturn;
  *history.Add() = Warning(3, v1::Ruling::BLACK);
  *history.Add() = Warning(4, v1::Ruling::BOTH);
  v1::Ruling pending = Warning(5, v1::Ruling::WHITE);
  pending.set_pending(true);
  *history.Add() = pending;
  GameFacts facts;
  CountWarnings(history, &facts);
  EXPECT_EQ(facts.warnings_black, 2);
  EXPECT_EQ(facts.warnings_white, 1);  // only ruling 4
}

TEST(CountWarnings, AnUpheldAppealKeepsTheWarning) {
  google::protobuf::RepeatedPtrField<v1::Ruling> history;
  *history.Add() = Warning(1, v1::Ruling::WHITE);
  v1::Ruling upheld;
  upheld.set_number(2);
  upheld.set_appealed(1);  // upheld: names it, supersedes nothing
  *history.Add() = upheld;
  GameFacts facts;
  CountWarnings(history, &facts);
  EXPECT_EQ(facts.warnings_white, 1);
}

TEST(CountWarnings, TheOverturnedWarningNoLongerBreaksTheTie) {
  // Round robin of two players, one drawn game; White (Q) was warned and
  // won the appeal. Level on points and A, and on B once the warning is
  // gone: they share first place.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P").Player("Q");
  b.Round(1, {{"P", "Q", "G1"}});
  google::protobuf::RepeatedPtrField<v1::Ruling> history;
  *history.Add() = Warning(1, v1::Ruling::WHITE);
  v1::Ruling overturn;
  overturn.set_number(2);
  overturn.set_supersedes(1);
  *history.Add() = overturn;
  GameFacts g1 = Decided(kDraw);
  CountWarnings(history, &g1);
  v1::StandingsReport r = ComputeStandings(b.Build(), {{"G1", g1}});
  EXPECT_EQ(Row(r.standings(), "Q").warnings(), 0);
  EXPECT_EQ(Row(r.standings(), "P").rank(), 1);
  EXPECT_EQ(Row(r.standings(), "Q").rank(), 1);
}

// 甲 (Black) v 乙 (White) paired; the game is recorded with 乙 as Black and
// won by Black. Counting it would credit 乙's win to 甲.
TEST(RecordedGame, ColoursSwappedAreAnErrorNotAResult) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("JIA").Player("YI");
  b.Round(1, {{"JIA", "YI", "G1"}});
  v1::Tournament t = b.Build();
  t.mutable_players(0)->set_name("甲");
  t.mutable_players(1)->set_name("乙");
  GameFacts g1 = Decided(kBlack);
  g1.recorded_black = "乙";
  g1.recorded_white = "甲";
  v1::StandingsReport r = ComputeStandings(t, {{"G1", g1}});
  ASSERT_THAT(r.pairings(), SizeIs(1));
  EXPECT_EQ(r.pairings(0).status(), v1::ScoredPairing::MISMATCH);
  EXPECT_EQ(Row(r.standings(), "JIA").points(), 0);
  EXPECT_EQ(Row(r.standings(), "YI").points(), 0);
  ASSERT_THAT(r.errors(), SizeIs(1));
  EXPECT_THAT(r.errors(0), HasSubstr("game G1 was recorded as '乙' (Black) v '甲' (White)"));
  EXPECT_THAT(r.errors(0), HasSubstr("the colours differ"));
}

TEST(RecordedGame, OtherPlayersAreAnError) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B").Player("C");
  b.Round(1, {{"A", "B", "G1"}}, {"C"});
  GameFacts g1 = Decided(kBlack);
  g1.recorded_black = "A";
  g1.recorded_white = "C";
  v1::StandingsReport r = ComputeStandings(b.Build(), {{"G1", g1}});
  EXPECT_EQ(r.pairings(0).status(), v1::ScoredPairing::MISMATCH);
  EXPECT_EQ(Row(r.standings(), "A").points(), 0);
  ASSERT_THAT(r.errors(), SizeIs(1));
  EXPECT_THAT(r.errors(0), HasSubstr("the players differ"));
}

TEST(RecordedGame, MatchingRecordCountsByIdOrName) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P1").Player("P2").Player("P3").Player("P4");
  b.Round(1, {{"P1", "P2", "G1"}, {"P3", "P4", "G2"}});
  v1::Tournament t = b.Build();
  t.mutable_players(0)->set_name("李");
  t.mutable_players(0)->set_first_name("伟");
  t.mutable_players(1)->set_name("Wang");
  t.mutable_players(1)->set_first_name("Ming");
  t.mutable_players(2)->set_romanized_family_name("Chen");
  t.mutable_players(2)->set_romanized_given_name("Jie");
  GameFacts g1 = Decided(kBlack);
  g1.recorded_black = "李伟";            // the native name, written whole
  g1.recorded_white = "  wang   ming ";  // case and spacing aside
  GameFacts g2 = Decided(kBlack);
  g2.recorded_black = "Chen Jie";  // the romanized name
  g2.recorded_white = "P4";        // the id
  v1::StandingsReport r = ComputeStandings(t, {{"G1", g1}, {"G2", g2}});
  EXPECT_EQ(r.pairings(0).status(), v1::ScoredPairing::DECIDED);
  EXPECT_EQ(r.pairings(1).status(), v1::ScoredPairing::DECIDED);
  EXPECT_THAT(r.errors(), SizeIs(0));
  EXPECT_EQ(Row(r.standings(), "P1").points(), 2);
  EXPECT_EQ(Row(r.standings(), "P1").name(), "李伟");
}

TEST(Names, RomanizedOrAsciiNativeOrARefusalNamingThePlayer) {
  v1::TournamentPlayer p;
  p.set_id("P7");
  p.set_name("李伟");
  absl::StatusOr<RomanizedName> n = Romanized(p, "EGD .h9");
  ASSERT_FALSE(n.ok());
  EXPECT_THAT(n.status().message(), HasSubstr("player 'P7' (李伟) has no romanized name"));
  p.set_romanized_family_name("Li");
  p.set_romanized_given_name("Wei");
  n = Romanized(p, "EGD .h9");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->family, "Li");
  EXPECT_EQ(n->given, "Wei");
  v1::TournamentPlayer ascii;
  ascii.set_name("Smith");
  ascii.set_first_name("John");
  EXPECT_EQ(Romanized(ascii, "AGA")->family, "Smith");
  v1::TournamentPlayer accented;
  accented.set_id("M");
  accented.set_name("Müller");
  EXPECT_FALSE(Romanized(accented, "AGA").ok());  // not transliterated behind the user's back
}

TEST(Names, JavaUpperCaseAsOpenGothaKeysNeedIt) {
  EXPECT_EQ(*JavaUpperCase("li wei"), "LI WEI");
  EXPECT_EQ(*JavaUpperCase("Müller"), "MÜLLER");
  EXPECT_EQ(*JavaUpperCase("Straße"), "STRASSE");  // SpecialCasing: ß -> SS
  EXPECT_EQ(*JavaUpperCase("Łukasz"), "ŁUKASZ");
  EXPECT_EQ(*JavaUpperCase("ŁÓDŹ ż"), "ŁÓDŹ Ż");
  EXPECT_EQ(*JavaUpperCase("Ελένη"), "ΕΛΈΝΗ");
  EXPECT_EQ(*JavaUpperCase("Пётр"), "ПЁТР");
  EXPECT_EQ(*JavaUpperCase("李伟"), "李伟");
  EXPECT_EQ(*JavaUpperCase("ｌｉ"), "ＬＩ");
  // Beyond the blocks the hand-made table knew (it refused these).
  EXPECT_EQ(*JavaUpperCase("ա"), "Ա");                   // Armenian
  EXPECT_EQ(*JavaUpperCase("Nguyễn"), "NGUYỄN");         // Vietnamese (Latin Extended Additional)
  EXPECT_EQ(*JavaUpperCase("ǆ ǅ"), "Ǆ Ǆ");               // digraphs, title case too
  EXPECT_EQ(*JavaUpperCase("ﬁnal ᾳ ŉ"), "FINAL ΑΙ ʼN");  // SpecialCasing expansions
  EXPECT_EQ(*JavaUpperCase("ἐς"), "ἘΣ");                 // polytonic Greek, final sigma
  // Turkish names the way Java's root locale (and so OpenGotha) maps them:
  // dotless ı to I, dotted i to I too, İ and ẞ already upper case.
  EXPECT_EQ(*JavaUpperCase("Işık İnci istanbul"), "IŞIK İNCI ISTANBUL");
  EXPECT_EQ(*JavaUpperCase("ẞ"), "ẞ");
  absl::StatusOr<std::string> broken = JavaUpperCase("Ab\xC3");
  ASSERT_FALSE(broken.ok());  // not UTF-8
  EXPECT_EQ(broken.status().message(), "\"Ab\xC3\" is not UTF-8 (byte 3)");
}

TEST(Names, RecordedNamesMatchWhateverTheirCase) {
  v1::TournamentPlayer m;
  m.set_id("M1");
  m.set_name("Müller");
  m.set_first_name("Straßer");
  EXPECT_TRUE(RecordedAs(m, "MÜLLER STRASSER"));
  EXPECT_TRUE(RecordedAs(m, "mu\xCC\x88ller  straßer"));  // combining diaeresis, two spaces
  EXPECT_FALSE(RecordedAs(m, "Muller Strasser"));         // ü is not u
  v1::TournamentPlayer t;
  t.set_id("T1");
  t.set_name("Işık");
  t.set_first_name("İnci");
  EXPECT_TRUE(RecordedAs(t, "IŞIK İNCİ"));   // Turkish keyboard
  EXPECT_FALSE(RecordedAs(t, "ISIK INCI"));  // ş is not s
  EXPECT_TRUE(RecordedAs(t, "IŞIK INCI"));   // other keyboards: no dotted capital
  v1::TournamentPlayer g;
  g.set_id("G1");
  g.set_name("Παπαδόπουλος");
  EXPECT_TRUE(RecordedAs(g, "ΠΑΠΑΔΌΠΟΥΛΟΣ"));  // final sigma folds like σ
}

TEST(Fold, RomanizedNamesAreAsciiAndNeedAFamilyName) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  v1::Tournament t = b.Build();
  v1::TournamentEvent e;
  v1::TournamentPlayer* p = e.mutable_player_added()->mutable_player();
  p->set_id("P1");
  p->set_name("李伟");
  p->set_romanized_family_name("Lǐ");
  EXPECT_THAT(Apply(e, &t).message(), HasSubstr("printable ASCII"));
  p->set_romanized_family_name("");
  p->set_romanized_given_name("Wei");
  EXPECT_THAT(Apply(e, &t).message(), HasSubstr("needs the romanized family name"));
  p->set_romanized_family_name("Li");
  EXPECT_TRUE(Apply(e, &t).ok());
}

// The standings of a round robin list every game it owes (28.2), so the
// number of its games is bounded: the 317th player of a single round robin
// (50,086 games) is refused, and a second cycle halves what fits.
TEST(Fold, ARoundRobinHasAtMostTheGamesItsStandingsCanHold) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  v1::Tournament t = b.Build();
  v1::TournamentEvent e;
  v1::TournamentPlayer* p = e.mutable_player_added()->mutable_player();
  for (int i = 0; i < 316; ++i) {
    p->set_id(absl::StrCat("P", i));
    p->set_name(absl::StrCat("Player ", i));
    ASSERT_TRUE(Apply(e, &t).ok()) << i;
  }
  p->set_id("P316");
  const absl::Status refused = Apply(e, &t);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.message(), HasSubstr("more than 50000 games"));
  EXPECT_EQ(t.players_size(), 316);
  EXPECT_EQ(t.revision(), 317u);
}

// A player (or a team) joins the record in place: each once copied the
// whole record, so a batch of N players cost N copies of a record growing
// to 2 MiB (an outside probe's AddPlayers of 12,000 players with 200-byte
// names held a core for 18 s before the record's bound refused it, and a
// reader's GetTournament paid the same for a large field). They fold in
// well under a second now; the bound is generous for sanitizer builds. A
// refused one still leaves the record as it was.
TEST(Fold, PlayersJoinWithoutACopyOfTheRecordEach) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  std::vector<v1::TournamentEvent> events = b.events();
  for (int i = 0; i < 12000; ++i) {
    v1::TournamentPlayer* p = events.emplace_back().mutable_player_added()->mutable_player();
    p->set_id(absl::StrCat("P", i));
    p->set_name(std::string(200, 'n'));
  }
  const absl::Time start = absl::Now();
  absl::StatusOr<v1::Tournament> t = Fold(events);
  const absl::Duration took = absl::Now() - start;
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->players_size(), 12000);
  EXPECT_EQ(t->revision(), 12001u);
  EXPECT_LT(took, absl::Seconds(5));
  EXPECT_FALSE(Apply(events.back(), &*t).ok());  // its id is taken
  EXPECT_EQ(t->players_size(), 12000);
  EXPECT_EQ(t->revision(), 12001u);
}

}  // namespace
}  // namespace arbiter::tournament
