#include "adjudicator/tournament/match_scores.h"

#include <map>
#include <tuple>
#include <utility>

#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/scoring.h"

namespace arbiter::tournament {

int MatchScore::MatchPoints(int side) const {
  const int mine = board_points[side];
  const int theirs = board_points[1 - side];
  return mine > theirs ? 2 : mine == theirs ? 1 : 0;
}

std::vector<MatchScore> MatchScores(
    const v1::Tournament& t, const google::protobuf::RepeatedPtrField<v1::ScoredPairing>& scored) {
  std::vector<MatchScore> out;
  if (!t.settings().teams()) return out;
  // (round, the two teams in id order) -> the match's place in `out`.
  std::map<std::tuple<int, std::string, std::string>, size_t> index;
  for (const v1::ScoredPairing& sp : scored) {
    if (sp.round() == 0 || sp.status() == v1::ScoredPairing::VOID) continue;
    const v1::TournamentPlayer* black = FindPlayer(t, sp.black());
    const v1::TournamentPlayer* white = FindPlayer(t, sp.white());
    if (black == nullptr || white == nullptr) continue;
    const std::string& tb = black->team();
    const std::string& tw = white->team();
    if (tb.empty() || tw.empty() || tb == tw) continue;
    const auto key = tb < tw ? std::tuple{sp.round(), tb, tw} : std::tuple{sp.round(), tw, tb};
    auto [at, added] = index.try_emplace(key, out.size());
    if (added) {
      MatchScore m;
      m.round = sp.round();
      m.teams[0] = tb;
      m.teams[1] = tw;
      out.push_back(std::move(m));
    }
    MatchScore& m = out[at->second];
    ++m.boards;
    if (!Counts(sp)) continue;
    ++m.finished;
    const bool black_first = m.teams[0] == tb;
    m.board_points[black_first ? 0 : 1] += sp.black_points();
    m.board_points[black_first ? 1 : 0] += sp.white_points();
  }
  return out;
}

}  // namespace arbiter::tournament
