#include "adjudicator/tournament/opengotha_round.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/opengotha.h"

namespace arbiter::tournament {
namespace {

// The player of `t` that the file's player `f` is; nullptr with `why` set
// when none or several are.
const v1::TournamentPlayer* Match(const v1::Tournament& t, const v1::TournamentPlayer& f,
                                  std::string* why) {
  std::vector<const v1::TournamentPlayer*> found;
  for (const v1::TournamentPlayer& p : t.players()) {
    if (!f.egf_pin().empty() && p.egf_pin() == f.egf_pin()) return &p;
  }
  const std::string name = NativeName(f);
  for (const v1::TournamentPlayer& p : t.players()) {
    if (RecordedAs(p, name)) found.push_back(&p);
  }
  if (found.size() == 1) return found[0];
  if (found.empty()) {
    *why = absl::StrCat(name, " (no such player)");
  } else {
    std::vector<std::string> ids;
    for (const v1::TournamentPlayer* p : found) ids.push_back(p->id());
    *why = absl::StrCat(name, " (players ", absl::StrJoin(ids, ", "), " all bear that name)");
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<v1::TournamentRound> RoundFromOpenGotha(absl::string_view xml,
                                                       const v1::Tournament& t, int round) {
  absl::StatusOr<std::vector<v1::TournamentEvent>> events =
      ReadOpenGotha(xml, t.tournament_id(), t.settings());
  if (!events.ok()) return events.status();
  std::map<std::string, v1::TournamentPlayer> file_players;  // by the file's key
  const v1::TournamentRound* wanted = nullptr;
  std::vector<std::string> rounds;
  for (const v1::TournamentEvent& e : *events) {
    if (e.has_player_added())
      file_players[e.player_added().player().id()] = e.player_added().player();
    if (e.has_round_paired()) {
      rounds.push_back(absl::StrCat(e.round_paired().round().round()));
      if (e.round_paired().round().round() == round) wanted = &e.round_paired().round();
    }
  }
  if (wanted == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the file pairs no round ", round,
        rounds.empty() ? std::string(" (it pairs none)")
                       : absl::StrCat(" (it pairs round ", absl::StrJoin(rounds, ", "), ")")));
  }
  std::vector<std::string> unknown;
  std::map<std::string, std::string> ids;  // the file's key -> the tournament's id
  auto id_of = [&](const std::string& key) -> std::string {
    if (auto it = ids.find(key); it != ids.end()) return it->second;
    std::string why;
    const v1::TournamentPlayer* p = Match(t, file_players[key], &why);
    if (p == nullptr) {
      unknown.push_back(why);
      return ids[key] = "";
    }
    return ids[key] = p->id();
  };
  v1::TournamentRound out;
  out.set_round(round);
  for (const v1::Pairing& f : wanted->pairings()) {
    v1::Pairing* p = out.add_pairings();
    p->set_round(round);
    p->set_board(f.board());
    p->set_black(id_of(f.black()));
    p->set_white(id_of(f.white()));
    p->set_handicap(f.handicap());
    p->set_team_board(f.team_board());
  }
  for (const std::string& bye : wanted->byes()) out.add_byes(id_of(bye));
  if (!unknown.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "round ", round, " of the file names ", unknown.size() == 1 ? "a player" : "players",
        " tournament '", t.tournament_id(), "' does not know: ", absl::StrJoin(unknown, "; "),
        " (add them with `tournament player`)"));
  }
  return out;
}

}  // namespace arbiter::tournament
