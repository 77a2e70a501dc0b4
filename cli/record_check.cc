#include "cli/record_check.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/new_input.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/field_bounds.h"

namespace arbiter::cli {
namespace {

std::string Rfc3339(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E*SZ", t, absl::UTCTimeZone());
}

}  // namespace

absl::StatusOr<std::string> RecordCheck::Check(int number, const v1::Event& event) {
  if (absl::Status s = service::CheckBounds(event, "event"); !s.ok()) return s;
  if (event.kind_case() == v1::Event::KIND_NOT_SET) {
    return absl::InvalidArgumentError(
        "the event has no kind (gameCreated, move, phoneRang, ...: DOMAIN.md §3)");
  }
  if (!event.has_at()) return absl::InvalidArgumentError("the event has no time (`at`)");
  if (absl::Status s = CheckTimestamp(event.at(), "its time (`at`)"); !s.ok()) return s;
  if (event.has_game_created()) {
    const std::string& id = event.game_created().game_id();
    if (id.empty()) return absl::InvalidArgumentError("gameCreated names no gameId");
    if (absl::Status s = CheckNewGame(event.game_created()); !s.ok()) return s;
    if (auto seen = games_.find(id); seen != games_.end() && seen->second.created_line > 0) {
      return absl::InvalidArgumentError(absl::StrCat("game '", id, "' is created again (line ",
                                                     seen->second.created_line, " created it)"));
    }
    game_ = id;
    games_[id].created_line = number;
  }
  if (game_.empty()) {
    return absl::InvalidArgumentError("no game: start with gameCreated or give --game");
  }
  Game& game = games_[game_];
  if (!event.has_event_voided()) {
    const absl::Time at = FromProto(event.at());
    if (at < game.last_at) {
      return absl::InvalidArgumentError(absl::StrCat(
          "time ", Rfc3339(at), " is earlier than line ", game.last_line, "'s ",
          Rfc3339(game.last_at), ": the lines of game '", game_, "' must be in time order"));
    }
    game.last_at = at;
    game.last_line = number;
  }
  return game_;
}

}  // namespace arbiter::cli
