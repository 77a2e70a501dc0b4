#include "adjudicator/tournament/recorded_standings.h"

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/standings.h"
#include "google/protobuf/util/message_differencer.h"

namespace arbiter::tournament {
namespace {

// The first difference between two reports, in one line.
std::string FirstDifference(const v1::StandingsReport& recorded, const v1::StandingsReport& now) {
  std::string diff;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  d.Compare(recorded, now);
  diff = diff.substr(0, diff.find('\n'));
  if (diff.size() > 200) diff = absl::StrCat(diff.substr(0, 200), "…");
  return diff;
}

}  // namespace

int CompleteThrough(const v1::Tournament& t, const GameFactsMap& games) {
  std::map<int, bool> complete;  // paired rounds: no pairing pending
  for (const v1::TournamentRound& r : t.rounds()) complete.emplace(r.round(), true);
  for (const v1::ScoredPairing& p : ScoreTournament(t, games)) {
    if (p.status() == v1::ScoredPairing::PENDING && complete.contains(p.round())) {
      complete[p.round()] = false;
    }
  }
  int n = 0;
  for (auto it = complete.find(1); it != complete.end() && it->first == n + 1 && it->second; ++it) {
    n = it->first;
  }
  return n;
}

v1::StandingsReport RoundStandings(const v1::Tournament& t, const GameFactsMap& games, int round) {
  v1::Tournament through = t;
  through.clear_rounds();
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() <= round) *through.add_rounds() = r;
  }
  return ComputeStandings(through, games);
}

std::optional<v1::StandingsRecorded> StandingsDue(const std::vector<v1::TournamentEvent>& events,
                                                  const v1::Tournament& t,
                                                  const GameFactsMap& games) {
  const int n = CompleteThrough(t, games);
  if (n < 1) return std::nullopt;
  v1::StandingsRecorded due;
  due.set_round(n);
  *due.mutable_standings() = RoundStandings(t, games, n);
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (!it->has_standings_recorded()) continue;
    if (google::protobuf::util::MessageDifferencer::Equals(it->standings_recorded(), due)) {
      return std::nullopt;
    }
    break;  // only the last record counts
  }
  return due;
}

absl::Status CheckRecordedStandings(const v1::Tournament& t, const GameFactsMap& games,
                                    const v1::StandingsRecorded& recorded) {
  const v1::StandingsReport now = RoundStandings(t, games, recorded.round());
  if (google::protobuf::util::MessageDifferencer::Equals(recorded.standings(), now)) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "the standings recorded for round ", recorded.round(),
      " differ from those the log gives: ", FirstDifference(recorded.standings(), now)));
}

}  // namespace arbiter::tournament
