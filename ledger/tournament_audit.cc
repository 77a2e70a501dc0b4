#include "ledger/internal/tournament_audit.h"

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {

std::optional<std::string> TournamentEntries::Add(const std::string& stream, uint64_t revision,
                                                  bool keyed, const std::string& bytes) {
  const std::string id = stream.substr(kTournamentStreamPrefix.size());
  absl::StatusOr<v1::TournamentEvent> event = ParseCanonical<v1::TournamentEvent>(bytes);
  if (!event.ok()) {
    return absl::StrCat("tournament '", id, "' revision ", revision, ": ",
                        event.status().message());
  }
  std::vector<v1::TournamentEvent>& events = streams_[id];
  if (revision != events.size() + 1) {
    return absl::StrCat("tournament '", id, "' jumps from revision ", events.size(), " to ",
                        revision);
  }
  if ((revision == 1) != event->has_created()) {
    return revision == 1 ? absl::StrCat("tournament '", id, "' does not begin with created")
                         : absl::StrCat("a second created in tournament '", id, "'");
  }
  if (event->has_created() && event->created().tournament_id() != id) {
    return absl::StrCat("created of tournament '", event->created().tournament_id(),
                        "' is filed under tournament '", id, "'");
  }
  if (keyed) return absl::StrCat("tournament '", id, "' revision ", revision, " has a key");
  events.push_back(*std::move(event));
  return std::nullopt;
}

}  // namespace arbiter::ledger
