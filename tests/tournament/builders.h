// Small builders for tournament tests: events, pairings and game facts
// written by hand, so each test reads as the tournament it describes.
#ifndef ARBITER_TESTS_TOURNAMENT_BUILDERS_H_
#define ARBITER_TESTS_TOURNAMENT_BUILDERS_H_

#include <string>
#include <utility>
#include <vector>

#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"
#include "gtest/gtest.h"

namespace arbiter::tournament::testing {

// A board: black, white, the game that decides it.
struct Board {
  std::string black;
  std::string white;
  std::string game;
};

class TournamentBuilder {
 public:
  TournamentBuilder(v1::TournamentSettings::System system, bool teams = false) {
    v1::TournamentEvent e;
    e.mutable_created()->set_tournament_id("T");
    e.mutable_created()->set_title("Test Cup");
    e.mutable_created()->mutable_settings()->set_system(system);
    e.mutable_created()->mutable_settings()->set_teams(teams);
    events_.push_back(e);
  }
  v1::TournamentSettings* settings() { return events_[0].mutable_created()->mutable_settings(); }
  // Pins the standings rules' version (standings_rules.h); none reads as the
  // first, "tournament-2026.1".
  TournamentBuilder& StandingsRules(const std::string& version) {
    events_[0].mutable_created()->set_standings_rules(version);
    return *this;
  }
  TournamentBuilder& Team(const std::string& id) {
    v1::TournamentEvent e;
    e.mutable_team_added()->mutable_team()->set_id(id);
    e.mutable_team_added()->mutable_team()->set_name("Team " + id);
    events_.push_back(e);
    return *this;
  }
  TournamentBuilder& Player(const std::string& id, const std::string& team = "", int board = 0) {
    v1::TournamentEvent e;
    v1::TournamentPlayer* p = e.mutable_player_added()->mutable_player();
    p->set_id(id);
    p->set_name(id);
    p->set_team(team);
    p->set_board(board);
    events_.push_back(e);
    return *this;
  }
  TournamentBuilder& Round(int round, const std::vector<Board>& boards,
                           const std::vector<std::string>& byes = {}) {
    v1::TournamentEvent e;
    v1::TournamentRound* r = e.mutable_round_paired()->mutable_round();
    r->set_round(round);
    int n = 0;
    for (const Board& b : boards) {
      v1::Pairing* p = r->add_pairings();
      p->set_board(++n);
      p->set_black(b.black);
      p->set_white(b.white);
      p->set_game_id(b.game);
    }
    for (const std::string& id : byes) r->add_byes(id);
    events_.push_back(e);
    return *this;
  }
  TournamentBuilder& Withdraw(const std::string& id, int after_round) {
    v1::TournamentEvent e;
    e.mutable_player_withdrawn()->set_player(id);
    e.mutable_player_withdrawn()->set_after_round(after_round);
    events_.push_back(e);
    return *this;
  }
  TournamentBuilder& Lots(const std::vector<std::string>& order) {
    v1::TournamentEvent e;
    e.mutable_tie_break_decided()->set_method(v1::TieBreakDecided::LOTS);
    for (const std::string& id : order) e.mutable_tie_break_decided()->add_order(id);
    events_.push_back(e);
    return *this;
  }
  TournamentBuilder& Replay(int round, int board, const std::string& game) {
    v1::TournamentEvent e;
    e.mutable_replay_scheduled()->set_round(round);
    e.mutable_replay_scheduled()->set_board(board);
    e.mutable_replay_scheduled()->set_game_id(game);
    events_.push_back(e);
    return *this;
  }
  const std::vector<v1::TournamentEvent>& events() const { return events_; }
  v1::Tournament Build() const {
    absl::StatusOr<v1::Tournament> t = Fold(events_);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? *t : v1::Tournament();
  }

 private:
  std::vector<v1::TournamentEvent> events_;
};

inline GameFacts Decided(v1::Result::Outcome outcome,
                         v1::Result::Reason reason = v1::Result::RESIGNATION,
                         int warnings_black = 0, int warnings_white = 0) {
  GameFacts f;
  f.result.emplace();
  f.result->set_outcome(outcome);
  f.result->set_reason(reason);
  f.warnings_black = warnings_black;
  f.warnings_white = warnings_white;
  return f;
}

inline constexpr auto kBlack = v1::Result::BLACK_WINS;
inline constexpr auto kWhite = v1::Result::WHITE_WINS;
inline constexpr auto kDraw = v1::Result::DRAW;

// The standing of `id` in `rows`.
inline const v1::Standing& Row(const google::protobuf::RepeatedPtrField<v1::Standing>& rows,
                               const std::string& id) {
  for (const v1::Standing& s : rows) {
    if (s.id() == id) return s;
  }
  ADD_FAILURE() << "no standing for " << id;
  static const v1::Standing kNone;
  return kNone;
}

// Ids in standings order.
inline std::vector<std::string> Order(
    const google::protobuf::RepeatedPtrField<v1::Standing>& rows) {
  std::vector<std::string> out;
  for (const v1::Standing& s : rows) out.push_back(s.id());
  return out;
}

}  // namespace arbiter::tournament::testing

#endif  // ARBITER_TESTS_TOURNAMENT_BUILDERS_H_
