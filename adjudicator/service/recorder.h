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

  // Neither owned; both must outlive this. `now` stamps the events of
  // creations and decisions that leave the time out.
  Recorder(
      ledger::Ledger* ledger, GameFolds* folds,
      std::function<absl::Time()> now = [] { return absl::Now(); });

  // Appends `events` to `game_id` as `caller`, expecting the game at
  // `expected` when given. Answers with the recorded events and their
  // rulings, the new revision and the game's result as it then stands.
  // Errors: INVALID_ARGUMENT (an empty or oversized batch, an event or one
  // of its strings over its byte limit (field_bounds.h), an event with no
  // kind or time, a gameCreated for another game), PERMISSION_DENIED (an
  // event kind the caller's role may not record), FAILED_PRECONDITION (a
  // game synced from a venue: only its sync writes it), and the ledger's and the
  // judge's own (NOT_FOUND, ALREADY_EXISTS, ABORTED, ...).
  // Unless `replay` says the events replay an earlier record, an event
  // dated more than max_skew ahead of `now` is INVALID_ARGUMENT too.
  absl::StatusOr<v1::AppendEventsResponse> Append(const Caller& caller, const std::string& game_id,
                                                  std::optional<uint64_t> expected,
                                                  std::vector<v1::Event> events,
                                                  bool replay = false);

  // What a request asks of an append beyond its events.
  struct AppendMode {
    // The events replay an earlier record: they may be dated ahead of the
    // server's clock (max_skew; AppendEventsRequest.replay).
    bool replay = false;
    // A dry run (AppendEventsRequest.validate_only): every check of a real
    // append, then the game's fold judges a copy; answers with the events
    // and rulings that would be recorded, storing nothing.
    bool validate_only = false;
  };

  // As Append above, as `mode` asks.
  absl::StatusOr<v1::AppendEventsResponse> Append(const Caller& caller, const std::string& game_id,
                                                  std::optional<uint64_t> expected,
                                                  std::vector<v1::Event> events, AppendMode mode);

  // What an append answers.
  using AppendDone = std::function<void(absl::StatusOr<v1::AppendEventsResponse>)>;

  // As Append, without holding the calling thread while another batch of
  // the ledger commits (Ledger::AppendHereOrQueue): `done` gets what Append
  // would return, on this thread before this returns when the request is
  // refused before the ledger or when no batch was running, else on the
  // thread that commits it. `done` must be quick and must not append.
  void AppendAsync(const Caller& caller, const std::string& game_id,
                   std::optional<uint64_t> expected, std::vector<v1::Event> events, bool replay,
                   AppendDone done);

  // How far ahead of the server's clock an event may be dated when it is
  // not a replay (`arbiter serve --max-skew`); InfiniteDuration: no guard.
  void set_max_skew(absl::Duration skew) { max_skew_ = skew; }

  // Asked before every append whether the game may be written here (not
  // owned; must outlive this): a game synced from a venue may not
  // (FAILED_PRECONDITION, venue_games.h). None: every game may.
  void set_venue_games(VenueGames* venue_games) { venue_games_ = venue_games; }

  // Records the game `request` describes (a random id when it names none and
  // is not a retry) and returns its id. With no `at`, the server stamps it
  // (a retry gets the first stamp) and a missing scheduled start is that
  // stamp. As Append, and INVALID_ARGUMENT for a bad id.
  absl::StatusOr<std::string> CreateGame(const Caller& caller,
                                         const v1::CreateGameRequest& request);

  // Records the arbiterDecision `request` describes. As Append.
  absl::StatusOr<v1::AppendEventsResponse> Decide(const Caller& caller,
                                                  const v1::DecideRequest& request);

 private:
  // Sets `event.at`: `at` when given, else the recorded event's when the
  // event's key is already recorded in `game_id`, else the server's clock.
  // Errors: the ledger's reads'.
  absl::Status Stamp(const std::string& game_id, const google::protobuf::Timestamp* at,
                     v1::Event& event);

  // Append's checks before the ledger: stamps each event with the caller.
  absl::Status Check(const Caller& caller, const std::string& game_id, bool replay,
                     std::vector<v1::Event>& events);
  static ledger::ExpectedRevision Expecting(std::optional<uint64_t> expected);
  // Append's answer once the ledger has answered `entries`.
  absl::StatusOr<v1::AppendEventsResponse> Answer(
      const std::string& game_id, absl::StatusOr<std::vector<v1::LedgerEntry>> entries);

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  std::function<absl::Time()> now_;
  absl::Duration max_skew_ = absl::InfiniteDuration();
  VenueGames* venue_games_ = nullptr;
};

// A stored ledger entry, decoded for clients.
absl::StatusOr<v1::RecordedEvent> Decode(const v1::LedgerEntry& entry);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_RECORDER_H_
