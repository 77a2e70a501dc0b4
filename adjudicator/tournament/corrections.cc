#include "adjudicator/tournament/corrections.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"

namespace arbiter::tournament {
namespace {

absl::Status BadCorrection(absl::string_view why) { return absl::InvalidArgumentError(why); }

v1::Pairing* MutablePairing(v1::Tournament* t, int round, int board) {
  for (v1::TournamentRound& r : *t->mutable_rounds()) {
    for (v1::Pairing& p : *r.mutable_pairings()) {
      if (p.round() == round && p.board() == board) return &p;
    }
  }
  return nullptr;
}

// The round is folded again with the pairing replaced, on a copy of the
// tournament without it, so an amended round passes exactly the checks a
// paired one does (fold.cc); the replays already scheduled are kept.
absl::Status Amend(const v1::PairingAmended& a, v1::Tournament* t) {
  const std::string at = absl::StrCat("round ", a.round(), " board ", a.board());
  auto round = std::find_if(t->mutable_rounds()->begin(), t->mutable_rounds()->end(),
                            [&](const v1::TournamentRound& r) { return r.round() == a.round(); });
  if (round == t->mutable_rounds()->end() || FindPairing(*t, a.round(), a.board()) == nullptr) {
    return BadCorrection(absl::StrCat(at, " is not paired"));
  }
  v1::TournamentRound amended = *round;
  std::vector<std::pair<int, google::protobuf::RepeatedPtrField<std::string>>> replays;
  for (v1::Pairing& p : *amended.mutable_pairings()) {
    if (p.board() == a.board()) {
      v1::Pairing next = a.pairing();
      next.set_round(a.round());
      next.clear_replayed_game_ids();
      *next.mutable_replayed_game_ids() = p.replayed_game_ids();
      p = std::move(next);
    }
    for (const std::string& g : p.replayed_game_ids()) {
      if (g == p.game_id()) return BadCorrection(absl::StrCat(at, ": game '", g, "' was replayed"));
    }
    replays.emplace_back(p.board(), p.replayed_game_ids());
    p.clear_replayed_game_ids();
  }
  v1::Tournament without = *t;
  without.mutable_rounds()->erase(without.mutable_rounds()->begin() +
                                  (round - t->mutable_rounds()->begin()));
  v1::TournamentEvent paired;
  *paired.mutable_round_paired()->mutable_round() = amended;
  if (absl::Status s = Apply(paired, &without); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(at, " amended: ", s.message()));
  }
  for (v1::TournamentRound& r : *without.mutable_rounds()) {
    if (r.round() != a.round()) continue;
    for (v1::Pairing& p : *r.mutable_pairings()) {
      for (auto& [board, games] : replays) {
        if (board == p.board()) *p.mutable_replayed_game_ids() = games;
      }
    }
    *round = r;
  }
  return absl::OkStatus();
}

absl::Status Update(const v1::PlayerUpdated& u, v1::Tournament* t) {
  const v1::TournamentPlayer& next = u.player();
  auto it = std::find_if(t->mutable_players()->begin(), t->mutable_players()->end(),
                         [&](const v1::TournamentPlayer& p) { return p.id() == next.id(); });
  if (it == t->mutable_players()->end())
    return BadCorrection(absl::StrCat("no player '", next.id(), "'"));
  if (next.team() != it->team() || next.board() != it->board()) {
    return BadCorrection(
        absl::StrCat("player '", next.id(), "': a correction keeps the player's team and board"));
  }
  // The same checks as a player added, on a tournament without the player.
  v1::Tournament without = *t;
  without.mutable_players()->erase(without.mutable_players()->begin() +
                                   (it - t->mutable_players()->begin()));
  v1::TournamentEvent added;
  *added.mutable_player_added()->mutable_player() = next;
  if (absl::Status s = Apply(added, &without); !s.ok()) return s;
  *it = next;
  return absl::OkStatus();
}

absl::Status EnterResult(const v1::ResultEntered& e, v1::Tournament* t) {
  const std::string at = absl::StrCat("round ", e.round(), " board ", e.board());
  v1::Pairing* p = MutablePairing(t, e.round(), e.board());
  if (p == nullptr) return BadCorrection(absl::StrCat(at, " is not paired"));
  switch (e.outcome()) {
    case v1::Result::BLACK_WINS:
    case v1::Result::WHITE_WINS:
    case v1::Result::DRAW:
    case v1::Result::BOTH_LOSE:
    case v1::Result::NO_RESULT:
      break;
    default:
      return BadCorrection(absl::StrCat(at,
                                        ": a score sheet's result is BLACK_WINS, WHITE_WINS, DRAW, "
                                        "BOTH_LOSE or NO_RESULT"));
  }
  p->set_entered_outcome(e.outcome());
  p->set_entered_by_default(e.by_default());
  p->set_from_score_sheet(true);
  return absl::OkStatus();
}

absl::Status Reinstate(const v1::PlayerReinstated& r, v1::Tournament* t) {
  if (FindPlayer(*t, r.player()) == nullptr)
    return BadCorrection(absl::StrCat("no player '", r.player(), "'"));
  auto it = std::find_if(t->withdrawals().begin(), t->withdrawals().end(),
                         [&](const v1::PlayerWithdrawn& w) { return w.player() == r.player(); });
  if (it == t->withdrawals().end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", r.player(), "' has no withdrawal recorded by a director to take back"));
  }
  t->mutable_withdrawals()->erase(t->mutable_withdrawals()->begin() +
                                  (it - t->withdrawals().begin()));
  return absl::OkStatus();
}

std::string Outcome(v1::Result::Outcome o, bool by_default) {
  return absl::StrCat(v1::Result::Outcome_Name(o), by_default ? " by default" : "");
}

}  // namespace

absl::Status ApplyCorrection(const v1::TournamentEvent& event, v1::Tournament* t) {
  const v1::TournamentCorrection& c = event.corrected();
  if (c.reason().empty())
    return BadCorrection("correction.reason: say why the record is corrected");
  absl::Status s;
  switch (c.kind_case()) {
    case v1::TournamentCorrection::kPairingAmended:
      s = Amend(c.pairing_amended(), t);
      break;
    case v1::TournamentCorrection::kPlayerUpdated:
      s = Update(c.player_updated(), t);
      break;
    case v1::TournamentCorrection::kResultEntered:
      s = EnterResult(c.result_entered(), t);
      break;
    case v1::TournamentCorrection::kPlayerReinstated:
      s = Reinstate(c.player_reinstated(), t);
      break;
    case v1::TournamentCorrection::KIND_NOT_SET:
      return BadCorrection(
          "correction: what is corrected (pairingAmended, playerUpdated, resultEntered or "
          "playerReinstated)");
  }
  if (!s.ok()) return s;
  *t->add_corrections() = event;
  return absl::OkStatus();
}

std::string CorrectionLine(const v1::TournamentEvent& event) {
  const v1::TournamentCorrection& c = event.corrected();
  const absl::Time at = absl::FromUnixSeconds(event.at().seconds());
  std::string line =
      absl::StrCat(absl::FormatTime("%Y-%m-%d %H:%M UTC", at, absl::UTCTimeZone()), ", ",
                   event.actor().empty() ? "(open server)" : event.actor(), ": ");
  switch (c.kind_case()) {
    case v1::TournamentCorrection::kPairingAmended: {
      const v1::PairingAmended& a = c.pairing_amended();
      const v1::Pairing& p = a.pairing();
      absl::StrAppend(&line, "round ", a.round(), " board ", a.board(), " amended to ", p.black(),
                      " (Black) v ", p.white(), " (White), board ", p.board(), ", handicap ",
                      p.handicap(), p.game_id().empty() ? "" : ", game ", p.game_id());
      break;
    }
    case v1::TournamentCorrection::kPlayerUpdated:
      absl::StrAppend(&line, "player ", c.player_updated().player().id(), "'s record updated");
      break;
    case v1::TournamentCorrection::kResultEntered: {
      const v1::ResultEntered& e = c.result_entered();
      absl::StrAppend(&line, "round ", e.round(), " board ", e.board(), ": ",
                      Outcome(e.outcome(), e.by_default()),
                      " entered from the paper score sheet (no game recorded)");
      break;
    }
    case v1::TournamentCorrection::kPlayerReinstated:
      absl::StrAppend(&line, "player ", c.player_reinstated().player(),
                      " reinstated (withdrawal taken back)");
      break;
    case v1::TournamentCorrection::KIND_NOT_SET:
      break;
  }
  absl::StrAppend(&line, ". Why: ", c.reason());
  return line;
}

std::vector<std::string> CorrectionLines(const v1::Tournament& t, bool ascii) {
  std::vector<std::string> out;
  for (const v1::TournamentEvent& e : t.corrections()) {
    std::string line = CorrectionLine(e);
    if (ascii && !IsPrintableAscii(line)) {
      std::string kept;
      for (size_t i = 0; i < line.size(); ++i) {
        const unsigned char c = line[i];
        if (c >= 0x20 && c < 0x7f) {
          kept.push_back(static_cast<char>(c));
        } else if ((c & 0xc0) != 0x80) {  // one "?" per character, not per byte
          kept.push_back('?');
        }
      }
      line = absl::StrCat(kept, " (in full in the sidecar)");
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace arbiter::tournament
