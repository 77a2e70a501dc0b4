// TournamentService's rounds as the hall plays them: ImportRound (a round
// paired in OpenGotha) and StartRound (its games created and attached).
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/service/tournament_service.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/matches.h"
#include "adjudicator/tournament/opengotha_round.h"
#include "adjudicator/tournament/round_games.h"
#include "adjudicator/tournament/scoring.h"
#include "proto/names/resource_name.h"

namespace arbiter::tournament {
namespace {

// Plans of a start made again after another writer got in first.
constexpr int kStartAttempts = 5;

// The pairing other than round `round` board `board` that names `game_id`
// (as its game or a replayed one), or nullptr.
const v1::Pairing* OtherPairingOf(const v1::Tournament& t, const std::string& game_id, int round,
                                  int board) {
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (p.round() == round && p.board() == board) continue;
      if (p.game_id() == game_id) return &p;
      for (const std::string& g : p.replayed_game_ids()) {
        if (g == game_id) return &p;
      }
    }
  }
  return nullptr;
}

// The game board `p` is played as: the one its pairing names (`tournament
// pair --board B,W,GAME`), else "{tournament}-r{N}-b{B}". INVALID_ARGUMENT
// when the name is not a game id the ledger would take.
absl::StatusOr<std::string> BoardGameId(const v1::Tournament& t, const v1::Pairing& p) {
  if (p.game_id().empty()) return RoundGameId(t.tournament_id(), p.round(), p.board());
  if (absl::Status s = CheckId("game", p.game_id()); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("round ", p.round(), " board ", p.board(), ": ",
                                                   s.message(),
                                                   " (tournament amend --game names another)"));
  }
  return p.game_id();
}

// What starting the round does for board `p`, decided before anything is
// written: nothing for a board a withdrawal forfeits (28.4, a game named or
// not) or whose game is in the ledger already; else its game created (`to_create`). A board
// without a game id gets its game attached (`attach`); one named at pairing
// is attached by its pairing already, and its game is created under that
// name if the ledger has none. A game in the ledger that is not this
// board's (other players or colours), or that another pairing names, is a
// clash: FAILED_PRECONDITION naming it.
absl::Status PlanBoard(const GameSource& games, const v1::Tournament& t, const v1::Pairing& p,
                       v1::StartRoundResponse::Table* table,
                       std::vector<v1::CreateGameRequest>* to_create, v1::TournamentEvent* attach) {
  // 28.4: no game is played, whatever game the board names (the standings
  // forfeit it all the same).
  if (std::string why = ForfeitedBoard(t, p); !why.empty()) {
    table->set_forfeited(std::move(why));
    return absl::OkStatus();
  }
  const bool named = !p.game_id().empty();
  const std::string at = absl::StrCat("round ", p.round(), " board ", p.board());
  absl::StatusOr<std::string> game_id = BoardGameId(t, p);
  if (!game_id.ok()) return game_id.status();
  table->set_game_id(*game_id);
  if (const v1::Pairing* other = OtherPairingOf(t, *game_id, p.round(), p.board())) {
    return WithRefusalReason(absl::FailedPreconditionError(
                                 absl::StrCat(at, ": game '", *game_id, "' already decides round ",
                                              other->round(), " board ", other->board())),
                             "GAME_DECIDES_OTHER_BOARD",
                             {{"board", absl::StrCat(p.board())},
                              {"game", *game_id},
                              {"otherRound", absl::StrCat(other->round())},
                              {"otherBoard", absl::StrCat(other->board())}});
  }
  absl::StatusOr<GameFacts> recorded = games(*game_id);
  if (recorded.ok()) {
    // The board's own game (named at pairing, or from a start cut short)
    // stands; any other game under its id is a clash.
    if (absl::Status s = CheckRecordedPlayers(t, p, *recorded); !s.ok()) {
      return WithRefusalReason(
          absl::FailedPreconditionError(absl::StrCat(
              at, ": game '", *game_id, "' exists and is not this board's: ", s.message())),
          "GAME_NOT_THIS_BOARDS", {{"board", absl::StrCat(p.board())}, {"game", *game_id}});
    }
  } else if (recorded.status().code() == absl::StatusCode::kNotFound) {
    absl::StatusOr<v1::GameCreated> game = RoundGame(t, p, *game_id);
    if (!game.ok()) return game.status();
    v1::CreateGameRequest& create = to_create->emplace_back();
    *create.mutable_game() = *std::move(game);
    // A retry of the same creation is answered with the original.
    create.set_request_id(absl::StrCat("start-round ", *game_id));
    table->set_created(true);
  } else {
    return absl::Status(recorded.status().code(),
                        absl::StrCat("game ", *game_id, ": ", recorded.status().message()));
  }
  if (named) return absl::OkStatus();  // its pairing names it: attached already
  v1::RoundStarted::BoardGame* g = attach->mutable_round_started()->add_games();
  g->set_board(p.board());
  g->set_game_id(*game_id);
  return absl::OkStatus();
}

// Round `n` of tournament `id`, paired and with a game to play; else why
// not, with its reason (refusal_reason.h).
absl::StatusOr<const v1::TournamentRound*> RoundToStart(const v1::Tournament& t,
                                                        const std::string& id, int n) {
  if (t.settings().rounds() > 0 && n > t.settings().rounds()) {
    return WithRefusalReason(
        absl::InvalidArgumentError(absl::StrCat("round ", n, ": tournament '", id, "' has ",
                                                t.settings().rounds(), " rounds")),
        "ROUND_BEYOND_LAST",
        {{"round", absl::StrCat(n)}, {"rounds", absl::StrCat(t.settings().rounds())}});
  }
  const v1::TournamentRound* round = nullptr;
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() == n) round = &r;
  }
  if (round == nullptr) {
    return WithRefusalReason(
        absl::FailedPreconditionError(absl::StrCat(
            "round ", n, " of tournament '", id,
            "' is not paired (tournament pair, or tournament import-round from OpenGotha)")),
        "ROUND_NOT_PAIRED", {{"round", absl::StrCat(n)}});
  }
  if (round->pairings().empty()) {
    return WithRefusalReason(
        absl::FailedPreconditionError(absl::StrCat("round ", n, " has byes only: no games")),
        "ROUND_BYES_ONLY", {{"round", absl::StrCat(n)}});
  }
  return round;
}

}  // namespace

grpc::Status TournamentServiceImpl::ImportRound(grpc::ServerContext* context,
                                                const v1::ImportRoundRequest* req,
                                                v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    if (req->round() < 1) return absl::InvalidArgumentError("round: rounds are numbered from 1");
    absl::StatusOr<v1::Tournament> current = Current(*id);
    if (!current.ok()) return current.status();
    absl::StatusOr<v1::TournamentRound> round =
        RoundFromOpenGotha(req->opengotha_xml(), *current, req->round());
    if (!round.ok()) return round.status();
    v1::TournamentEvent event;
    *event.mutable_round_paired()->mutable_round() = *std::move(round);
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::StartRound(grpc::ServerContext* context,
                                               const v1::StartRoundRequest* req,
                                               v1::StartRoundResponse* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<v1::StartRoundResponse> r = StartRoundAs(caller, *req);
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::StartRoundResponse> TournamentServiceImpl::StartRoundAs(
    const service::Caller& caller, const v1::StartRoundRequest& req) {
  absl::StatusOr<std::string> id = ParseResourceName("tournaments", req.tournament(), "tournament");
  if (!id.ok()) return id.status();
  if (req.round() < 1) return absl::InvalidArgumentError("round: rounds are numbered from 1");
  if (!make_game_) return absl::FailedPreconditionError("this server creates no games");
  // Another start (or write) of the tournament, on this server or another
  // of the same database, got in between the read and the append: the
  // ledger refused the stale revision (ABORTED), and the round is planned
  // again from what was recorded (its games attached by the other start are
  // found, not made twice).
  absl::Status conflict;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    absl::StatusOr<v1::StartRoundResponse> r = StartRoundOnce(caller, *id, req.round());
    if (!absl::IsAborted(r.status())) return r;
    conflict = r.status();
  }
  return conflict;
}

absl::StatusOr<v1::StartRoundResponse> TournamentServiceImpl::StartRoundOnce(
    const service::Caller& caller, const std::string& id, int n) {
  absl::StatusOr<v1::Tournament> t = Current(id);
  if (absl::IsNotFound(t.status())) {
    return WithRefusalReason(t.status(), "TOURNAMENT_NOT_FOUND", {{"tournament", id}});
  }
  if (!t.ok()) return t.status();
  absl::StatusOr<const v1::TournamentRound*> round = RoundToStart(*t, id, n);
  if (!round.ok()) return round.status();
  // Every check first: a refusal writes nothing.
  v1::StartRoundResponse answer;
  std::vector<v1::CreateGameRequest> to_create;
  v1::TournamentEvent attach;
  attach.mutable_round_started()->set_round(n);
  for (const v1::Pairing& p : (*round)->pairings()) {
    v1::StartRoundResponse::Table* table = answer.add_tables();
    table->set_board(p.board());
    if (absl::Status s = PlanBoard(games_, *t, p, table, &to_create, &attach); !s.ok()) return s;
  }
  for (const v1::CreateGameRequest& create : to_create) {
    if (absl::Status s = make_game_(caller, create); !s.ok()) {
      // Made meanwhile by another start: planned again, it is found.
      const absl::StatusCode code =
          absl::IsAlreadyExists(s) ? absl::StatusCode::kAborted : s.code();
      return absl::Status(
          code, absl::StrCat("creating game ", create.game().game_id(), ": ", s.message()));
    }
  }
  if (attach.round_started().games().empty()) {
    *answer.mutable_tournament() = *std::move(t);
    return answer;
  }
  std::vector<v1::TournamentEvent> events;
  events.push_back(std::move(attach));
  // At the revision the plan was made from: a start that got in meanwhile
  // makes it ABORTED, and it is planned again.
  absl::StatusOr<v1::Tournament> after = AppendOnto(caller, id, *std::move(t), std::move(events));
  if (!after.ok()) return after.status();
  *answer.mutable_tournament() = *std::move(after);
  return answer;
}

}  // namespace arbiter::tournament
