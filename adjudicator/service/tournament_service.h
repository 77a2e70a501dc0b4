// The arbiter.v1.TournamentService gRPC service (tournament.proto): writes
// fold the tournament's stored events, fold the new ones on top (the fold
// validates), then append them expecting the revision that was read; reads
// fold and, for standings and exports, ask `games` for each pairing's game.
//
// Status codes as the arbiter.v1 service: INVALID_ARGUMENT for bad input,
// NOT_FOUND for an unknown tournament, ALREADY_EXISTS for a tournament id in
// use, FAILED_PRECONDITION when the state forbids it (a round paired twice,
// a Swiss pairing after a withdrawal, a replay of a game that did not end
// REPLAY, a pairing or replay naming a recorded game whose players or
// colours differ from the pairing's), ABORTED when another writer got in first (or
// when the standings or export a page token names changed since its first
// page), UNAVAILABLE when the storage or the game source failed.
//
// GetStandings and ExportTournament answer in pages of at most 1 MiB
// (answer_pages.h): a round robin's report grows with the square of its
// players, so a record of 2 MiB may make a report of more than gRPC's 4 MiB.
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_SERVICE_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_SERVICE_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/answer_pages.h"
#include "adjudicator/service/auth_interceptor.h"
#include "adjudicator/service/tournament_store.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/service.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"

namespace arbiter::tournament {

// One game's facts from the ledger's read model; NOT_FOUND when the ledger
// has no such game (its pairing is then pending).
using GameSource = std::function<absl::StatusOr<GameFacts>(const std::string& game_id)>;

// Creates a game in the ledger as `caller` (the server's Recorder), for
// StartRound: OK when it is recorded, or was already by this request_id.
using GameMaker =
    std::function<absl::Status(const service::Caller& caller, const v1::CreateGameRequest&)>;

class TournamentServiceImpl final : public v1::TournamentService::Service {
 public:
  // Neither `store` nor `callers` is owned; both must outlive the service.
  // Without `make_game` StartRound is FAILED_PRECONDITION (no games made).
  TournamentServiceImpl(
      TournamentStore* store, GameSource games, const service::Callers* callers,
      std::function<absl::Time()> now = [] { return absl::Now(); }, GameMaker make_game = nullptr);

  grpc::Status CreateTournament(grpc::ServerContext*, const v1::CreateTournamentRequest*,
                                v1::Tournament*) override;
  grpc::Status ImportTournament(grpc::ServerContext*, const v1::ImportTournamentRequest*,
                                v1::Tournament*) override;
  grpc::Status ListTournaments(grpc::ServerContext*, const v1::ListTournamentsRequest*,
                               v1::ListTournamentsResponse*) override;
  grpc::Status GetTournament(grpc::ServerContext*, const v1::GetTournamentRequest*,
                             v1::Tournament*) override;
  grpc::Status AddPlayers(grpc::ServerContext*, const v1::AddPlayersRequest*,
                          v1::Tournament*) override;
  grpc::Status PairRound(grpc::ServerContext*, const v1::PairRoundRequest*,
                         v1::Tournament*) override;
  grpc::Status ImportRound(grpc::ServerContext*, const v1::ImportRoundRequest*,
                           v1::Tournament*) override;
  grpc::Status StartRound(grpc::ServerContext*, const v1::StartRoundRequest*,
                          v1::StartRoundResponse*) override;
  grpc::Status ScheduleReplay(grpc::ServerContext*, const v1::ScheduleReplayRequest*,
                              v1::Tournament*) override;
  grpc::Status WithdrawPlayer(grpc::ServerContext*, const v1::WithdrawPlayerRequest*,
                              v1::Tournament*) override;
  grpc::Status DecideTieBreak(grpc::ServerContext*, const v1::DecideTieBreakRequest*,
                              v1::Tournament*) override;
  // FAILED_PRECONDITION besides the fold's errors: an amended pairing whose
  // recorded game was played by other players or in other colours, a result
  // entered for a pairing whose game is recorded.
  grpc::Status CorrectTournament(grpc::ServerContext*, const v1::CorrectTournamentRequest*,
                                 v1::Tournament*) override;
  grpc::Status GetStandings(grpc::ServerContext*, const v1::GetStandingsRequest*,
                            v1::StandingsReport*) override;
  grpc::Status ExportTournament(grpc::ServerContext*, const v1::ExportTournamentRequest*,
                                v1::ExportTournamentResponse*) override;
  // A team's lineup for a round (matches.h CheckLineup says what is refused).
  grpc::Status SetLineup(grpc::ServerContext*, const v1::SetLineupRequest*,
                         v1::Tournament*) override;

  // The tournament `id` as its stored events fold now (NOT_FOUND when there
  // is none; DATA_LOSS when they no longer fold), for the console.
  absl::StatusOr<v1::Tournament> Current(const std::string& id);
  // The standings of tournament `id` now, with the tournament they count
  // (its games' withdrawals applied) and its games' facts.
  absl::StatusOr<v1::StandingsReport> Standings(const std::string& id, v1::Tournament* t,
                                                GameFactsMap* games);
  // StartRound for a caller already admitted as the method's access
  // requires (the console's button; tournament_rounds.cc). Creates the game
  // of every board of the round that names none, "{tournament}-r{N}-b{B}"
  // (round_games.h), as `caller` through `make_game`, then attaches them
  // all in one RoundStarted; a board that names a game keeps it (and gets
  // it created under that name, with its players, when the ledger has none
  // yet), and a team event's board a withdrawal forfeits (28.4) gets none. A game
  // already in the ledger under that id that was created for the board (its
  // players in its colours: an earlier start cut short) is attached, not
  // created again. Errors, each before anything is written:
  // INVALID_ARGUMENT (a malformed name, a round below 1 or past the
  // tournament's rounds, a game id too long); NOT_FOUND (no tournament);
  // FAILED_PRECONDITION (the round not paired or with byes only, a handicap
  // board, a game under the board's id or name that is not the board's or
  // that another pairing names); the ledger's own as creating a game meets them
  // (games created before it stay and are attached by the next call). Safe
  // across servers of one database without a lock: a start that finds the
  // tournament moved since its read (another start got in first) plans
  // again from what is recorded, a few times, then is ABORTED.
  absl::StatusOr<v1::StartRoundResponse> StartRoundAs(const service::Caller& caller,
                                                      const v1::StartRoundRequest& request);

 private:
  // Folds `id`'s stored events, applies `events` (stamped now, and with
  // `caller` as their actor) and stores them; `must_exist` false for
  // creation. When another writer got in between the read and the append
  // (the server's standings recorder, another server), the events are
  // checked again on what is recorded then and appended, as if the request
  // had come a moment later: ABORTED only after a few such rounds.
  absl::StatusOr<v1::Tournament> Record(const service::Caller& caller, const std::string& id,
                                        std::vector<v1::TournamentEvent> events, bool must_exist);
  // Record's work: appends expecting the revision it read, so a writer on
  // another server (or another thread) that got in first makes it ABORTED,
  // writing nothing; write_mu_ only spares this server's own writers that.
  absl::StatusOr<v1::Tournament> FoldAndAppend(const service::Caller& caller, const std::string& id,
                                               std::vector<v1::TournamentEvent> events,
                                               bool must_exist);
  // Applies `events` (stamped now, with `caller` as their actor) onto `t`,
  // tournament `id` as read, and appends them expecting the revision read:
  // ABORTED, writing nothing, when the tournament moved since.
  absl::StatusOr<v1::Tournament> AppendOnto(const service::Caller& caller, const std::string& id,
                                            v1::Tournament t,
                                            std::vector<v1::TournamentEvent> events);
  // One plan and start of round `n` (StartRoundAs); ABORTED when another
  // writer got in between its read and its append.
  absl::StatusOr<v1::StartRoundResponse> StartRoundOnce(const service::Caller& caller,
                                                        const std::string& tournament_id, int n);
  // Records one event into the existing tournament named `name`
  // ("tournaments/ID") and answers with the tournament after it.
  absl::Status RecordInto(const service::Caller& caller, const std::string& name,
                          v1::TournamentEvent event, v1::Tournament* out);
  // FAILED_PRECONDITION when `p`'s game is in the ledger and was recorded
  // with other players or colours (scoring.h CheckRecordedPlayers); OK when
  // it is not recorded yet.
  absl::Status CheckRecorded(const v1::Tournament& t, const v1::Pairing& p);
  // The facts of every game the tournament names.
  absl::StatusOr<GameFactsMap> Games(const v1::Tournament& t);

  // The whole export of `id` in `format`, unpaged, derived from the log at
  // the signed checkpoint of `at_tree_size` (0: one signed at the head now;
  // TournamentStore::ExportCheckpoint), with the request's `options`.
  absl::StatusOr<v1::ExportTournamentResponse> WholeExport(
      const std::string& id, v1::ExportTournamentRequest::Format format, uint64_t at_tree_size,
      const ExportOptions& options);

  TournamentStore* store_;
  GameSource games_;
  const service::Callers* callers_;
  std::function<absl::Time()> now_;
  GameMaker make_game_;
  absl::Mutex write_mu_;        // this server's writes one at a time (Record)
  service::AnswerPages pages_;  // GetStandings' and ExportTournament's, kept between pages
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_SERVICE_H_
