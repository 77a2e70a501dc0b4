#include "ledger/stream.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "proto/names/resource_name.h"

namespace arbiter::ledger {

bool IsTournamentStream(absl::string_view stream) {
  return absl::StartsWith(stream, kTournamentStreamPrefix);
}

absl::StatusOr<std::string> TournamentStream(absl::string_view tournament_id) {
  if (absl::Status s = CheckId("tournament", tournament_id); !s.ok()) return s;
  return absl::StrCat(kTournamentStreamPrefix, tournament_id);
}

std::string LeafData(absl::string_view stream, absl::string_view bytes) {
  if (!IsTournamentStream(stream)) return std::string(bytes);
  return absl::StrCat(kTournamentLeafPrefix, bytes);
}

Hash EntryLeafHash(absl::string_view stream, absl::string_view bytes) {
  if (!IsTournamentStream(stream)) return LeafHash(bytes);
  return LeafHash(LeafData(stream, bytes));
}

}  // namespace arbiter::ledger
