#include "ledger/internal/append_checks.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {

absl::Status ValidateAppend(const std::string& game_id, const std::vector<v1::Event>& events) {
  if (game_id.empty()) return absl::InvalidArgumentError("an append needs a game id");
  if (events.empty()) return absl::InvalidArgumentError("an append needs at least one event");
  if (IsTournamentStream(game_id)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", game_id, "' names a tournament's stream, not a game"));
  }
  std::set<std::string> keys;
  for (size_t i = 0; i < events.size(); ++i) {
    const v1::Event& e = events[i];
    if (e.kind_case() == v1::Event::KIND_NOT_SET) {
      return absl::InvalidArgumentError(
          absl::StrCat("event ", i + 1, " of the append has no kind"));
    }
    if (!e.idempotency_key().empty() && !keys.insert(e.idempotency_key()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("idempotency key '", e.idempotency_key(), "' is used twice in one append"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAgainstStream(const std::string& game_id, const std::vector<v1::Event>& events,
                                uint64_t current, ExpectedRevision expected) {
  // Whether the game is there decides before the revision does: creating a
  // game that exists is ALREADY_EXISTS, writing to one that does not is
  // NOT_FOUND, whatever revision the caller expected.
  if (current == 0 && !events[0].has_game_created()) {
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
  }
  if (current > 0 && events[0].has_game_created()) {
    return absl::AlreadyExistsError(absl::StrCat("game '", game_id, "' already exists"));
  }
  if (absl::Status s = expected.Check(game_id, current); !s.ok()) return s;

  // The stream's shape: gameCreated first, for this game, and only first.
  for (size_t i = 1; i < events.size(); ++i) {
    if (events[i].has_game_created()) {
      return absl::InvalidArgumentError(
          absl::StrCat("game '", game_id, "': gameCreated at revision ", current + 1 + i));
    }
  }
  if (events[0].has_game_created() && events[0].game_created().game_id() != game_id) {
    return absl::InvalidArgumentError(absl::StrCat("gameCreated names game '",
                                                   events[0].game_created().game_id(),
                                                   "' in the stream of '", game_id, "'"));
  }
  return absl::OkStatus();
}

absl::Status ValidateTournamentAppend(const std::string& stream,
                                      const std::vector<v1::TournamentEvent>& events) {
  if (!IsTournamentStream(stream)) {
    return absl::InvalidArgumentError(absl::StrCat("'", stream, "' is not a tournament's stream"));
  }
  absl::StatusOr<std::string> named =
      TournamentStream(stream.substr(kTournamentStreamPrefix.size()));
  if (!named.ok()) return named.status();
  if (events.empty()) return absl::InvalidArgumentError("an append needs at least one event");
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind_case() == v1::TournamentEvent::KIND_NOT_SET) {
      return absl::InvalidArgumentError(
          absl::StrCat("event ", i + 1, " of the append has no kind"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAgainstTournamentStream(const std::string& stream,
                                          const std::vector<v1::TournamentEvent>& events,
                                          uint64_t current, ExpectedRevision expected) {
  if (current == 0 && !events[0].has_created()) {
    return absl::NotFoundError(
        absl::StrCat("no tournament '", stream, "': its stream must begin with created"));
  }
  if (current > 0 && events[0].has_created()) {
    return absl::AlreadyExistsError(absl::StrCat("tournament '", stream, "' already exists"));
  }
  if (absl::Status s = expected.Check(stream, current); !s.ok()) return s;
  for (size_t i = 1; i < events.size(); ++i) {
    if (events[i].has_created()) {
      return absl::InvalidArgumentError(
          absl::StrCat("tournament '", stream, "': created at revision ", current + 1 + i));
    }
  }
  const std::string id = stream.substr(kTournamentStreamPrefix.size());
  if (events[0].has_created() && events[0].created().tournament_id() != id) {
    return absl::InvalidArgumentError(absl::StrCat("created names tournament '",
                                                   events[0].created().tournament_id(),
                                                   "' in the stream of '", stream, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<GameJudge>> ReplayStream(
    Judge& judge_of, const std::string& game_id, const std::optional<std::string>& pin,
    const std::function<absl::StatusOr<std::optional<std::string>>()>& next) {
  std::unique_ptr<GameJudge> judge;
  for (uint64_t rev = 1;; ++rev) {
    absl::StatusOr<std::optional<std::string>> bytes = next();
    if (!bytes.ok()) return bytes.status();
    if (!*bytes) break;
    absl::StatusOr<v1::Event> e = ParseCanonical<v1::Event>(**bytes);
    if (!e.ok()) return e.status();
    if (judge == nullptr) {
      // The game continues only under the rules it was created under: the
      // pin recorded then chooses them (a later version may rule otherwise).
      absl::StatusOr<std::unique_ptr<GameJudge>> j =
          judge_of.Reopen(game_id, e->game_created(), pin.value_or(""));
      if (!j.ok()) return j.status();
      judge = *std::move(j);
    }
    absl::StatusOr<Verdict> v = judge->Apply(*e);
    if (!v.ok()) {
      return absl::FailedPreconditionError(absl::StrCat("game '", game_id,
                                                        "' no longer replays: its event ", rev,
                                                        " is refused: ", v.status().message()));
    }
  }
  if (judge == nullptr)
    return absl::InternalError(absl::StrCat("game '", game_id, "' has no events"));
  if (!pin || *pin != judge->RulesPin()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", game_id, "' was created under '", pin ? *pin : "(no pin)",
                     "' but the rules now load as '", judge->RulesPin(), "'"));
  }
  return judge;
}

}  // namespace arbiter::ledger
