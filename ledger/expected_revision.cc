#include "ledger/expected_revision.h"

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"

namespace arbiter::ledger {

absl::Status ExpectedRevision::Check(const std::string& game_id, uint64_t current) const {
  if (any() || current == value_) return absl::OkStatus();
  std::string expected = value_ == 0 ? "no stream" : absl::StrCat("revision ", value_);
  std::string actual = current == 0 ? "has no stream" : absl::StrCat("is at revision ", current);
  return absl::AbortedError(absl::StrCat(IsTournamentStream(game_id) ? "tournament '" : "game '",
                                         game_id, "' ", actual, "; the append expected ",
                                         expected));
}

}  // namespace arbiter::ledger
