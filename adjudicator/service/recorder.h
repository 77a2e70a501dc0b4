// The one write path of a game, whoever writes: the gRPC methods
// (CreateGame, AppendEvents, Decide) and the web console record through it,
// so every write is checked, stamped and answered alike, and lands in the
// ledger, judged, with its actor.
//
// Each event records the caller as Event.actor and Event.authority, whatever
// the client put there (both empty when the server runs open), and its kind
// must be one the caller's role may record (EventAccess, auth_role.h). An
// event with no time gets none from here: the methods that may leave it out
// (CreateGame, Decide) stamp the server's clock, or, on a retry (a
// request_id already recorded in the game), the time stamped the first time,
// so the retry is answered with the original acknowledgement.
#ifndef ARBITER_ADJUDICATOR_SERVICE_RECORDER_H_
#define ARBITER_ADJUDICATOR_SERVICE_RECORDER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/venue_games.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class Recorder {
 public:
  // At most this many events per append.
  static constexpr size_t kMaxBatch = 1000;

  // What a request asks of an append beyond its events.
  struct AppendMode {
    // The events replay an earlier record: they may be dated ahead of the
    // server's clock (max_skew; AppendEventsRequest.replay).
    bool replay = false;
    // A dry run (AppendEventsRequest.validate_only): every check of a real
    // append, then the ledger's own (AppendRequest::preview); answers
    // with the events and rulings that would be recorded, storing nothing.
    bool validate_only = false;
    // The request can say it replays a record (AppendEvents, RecordEvents).
    // CreateGame and Decide cannot: a time of theirs ahead of the clock is
    // refused with their own remedy, `at` left out for the server to stamp.
    bool can_replay = true;
  };

  // How every write is held, whichever front end it comes through.
  struct Rules {
    // How far ahead of the server's clock an event may be dated when it is
    // not a replay (`arbiter serve --max-skew`); InfiniteDuration: no guard.
    absl::Duration max_skew = absl::Minutes(10);
    // Asked before every append whether the game may be written here (not
    // owned; must outlive the recorder): a game synced from a venue may not
    // (FAILED_PRECONDITION, venue_games.h). None: every game may.
    VenueGames* venue_games = nullptr;
    // The server's clock: the skew guard's, and the stamp of creations and
    // decisions that leave the time out.
    std::function<absl::Time()> now = [] { return absl::Now(); };
  };

  // One per server, built once and handed to every front end that writes
  // (the gRPC service, the web console), so no rule can be given to one and
  // forgotten on another. `ledger` and `folds` are not owned and must
  // outlive this.
  Recorder(ledger::Ledger* ledger, GameFolds* folds, Rules rules);

  // Appends `events` to `game_id` as `caller`, expecting the game at
  // `expected` when given. Answers with the recorded events and their
  // rulings, the new revision and the game's result as it then stands.
  // Errors: INVALID_ARGUMENT (an empty or oversized batch, an event or one
  // of its strings over its byte limit (field_bounds.h), an event with no
  // kind or time, a gameCreated for another game), PERMISSION_DENIED (an
  // event kind the caller's role may not record, an ARBITER outside its
  // games), FAILED_PRECONDITION (a
  // game synced from a venue: only its sync writes it), and the ledger's and the
  // judge's own (NOT_FOUND, ALREADY_EXISTS, ABORTED, ...).
  // Unless `mode.replay` says the events replay an earlier record, an event
  // dated more than rules.max_skew ahead of the clock is INVALID_ARGUMENT too. With
  // `mode.validate_only` nothing is stored: the answer is what would have
  // been recorded (the result as it would then stand), the errors the same.
  absl::StatusOr<v1::AppendEventsResponse> Append(const Caller& caller, const std::string& game_id,
                                                  std::optional<uint64_t> expected,
                                                  std::vector<v1::Event> events, AppendMode mode);

  // What an append answers.
  using AppendDone = std::function<void(absl::StatusOr<v1::AppendEventsResponse>)>;

  // As Append, without holding the calling thread while the ledger commits
  // (Ledger::Append): `done` gets what Append would return, on
  // this thread before this returns when the request is refused before it
  // is queued (by these checks or the ledger's own of its form), else on
  // the ledger's thread that answers its batch. `done` must be quick and
  // must not append.
  void AppendAsync(const Caller& caller, const std::string& game_id,
                   std::optional<uint64_t> expected, std::vector<v1::Event> events, AppendMode mode,
                   AppendDone done);

  // AppendAsync for what `request` asks (AppendEvents, and each request of
  // a RecordEvents stream): its game (INVALID_ARGUMENT, to `done`, for a
  // malformed name), expected revision, events, replay and validate_only.
  void AppendAsync(const Caller& caller, const v1::AppendEventsRequest& request, AppendDone done);

  // Records the game `request` describes (a random id when it names none and
  // is not a retry) and returns its id. With no `at`, the server stamps it
  // (a retry gets the first stamp) and a missing scheduled start is that
  // stamp. As Append, and INVALID_ARGUMENT for a bad id or a game without
  // both players (a blank game.black.name or game.white.name, named).
  absl::StatusOr<std::string> CreateGame(const Caller& caller,
                                         const v1::CreateGameRequest& request);

  // Records the arbiterDecision `request` describes (with
  // `request.validate_only`, a dry run of it), admitted first by the Decide
  // method's own step (admission.h), whichever front end asks. As Append,
  // and INVALID_ARGUMENT for any string of the request over its byte limit.
  absl::StatusOr<v1::AppendEventsResponse> Decide(const Caller& caller,
                                                  const v1::DecideRequest& request);

 private:
  // Sets `event.at`: `at` when given, else the recorded event's when the
  // event's key is already recorded in `game_id`, else the server's clock.
  // Errors: the ledger's reads'.
  absl::Status Stamp(const std::string& game_id, const google::protobuf::Timestamp* at,
                     v1::Event& event);

  // Append's checks before the ledger: stamps each event with the caller.
  absl::Status Check(const Caller& caller, const std::string& game_id, const AppendMode& mode,
                     std::vector<v1::Event>& events);
  static ledger::ExpectedRevision Expecting(std::optional<uint64_t> expected);
  // Append's answer once the ledger has committed `entries`, the game's
  // result from `fold` (the game as the commit left it; nullptr for a retry
  // of recorded events: then read from the read model).
  absl::StatusOr<v1::AppendEventsResponse> Answer(const std::string& game_id,
                                                  std::vector<v1::LedgerEntry> entries,
                                                  const ledger::GameJudge* fold);
  // A dry run's answer: the result is the one the preview found.
  absl::StatusOr<v1::AppendEventsResponse> AnswerPreview(const std::string& game_id,
                                                         absl::StatusOr<ledger::Appended> preview);

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  const Rules rules_;
};

// A stored ledger entry, decoded for clients.
absl::StatusOr<v1::RecordedEvent> Decode(const v1::LedgerEntry& entry);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_RECORDER_H_
