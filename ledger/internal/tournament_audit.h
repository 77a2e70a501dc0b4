// The audit's part for tournament streams (stream.h), kept apart from the
// game walk (audit.cc calls it for each tournament entry, in log order): each
// entry's bytes a canonical arbiter.v1.TournamentEvent, its stream's
// revisions contiguous from a `created` that names the stream's tournament,
// no `created` after the first, no idempotency key and no ruling.
#ifndef ARBITER_LEDGER_INTERNAL_TOURNAMENT_AUDIT_H_
#define ARBITER_LEDGER_INTERNAL_TOURNAMENT_AUDIT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/v1/tournament.pb.h"

namespace arbiter::ledger {

class TournamentEntries {
 public:
  // One tournament entry of `stream` at `revision`, with its stored bytes;
  // `keyed` when its idempotency key column is set. The finding, in words,
  // when it breaks a promise above; nullopt otherwise.
  std::optional<std::string> Add(const std::string& stream, uint64_t revision, bool keyed,
                                 const std::string& bytes);

  // The tournaments seen so far, each with its events in revision order,
  // keyed by tournament id.
  const std::map<std::string, std::vector<v1::TournamentEvent>>& streams() const {
    return streams_;
  }

 private:
  std::map<std::string, std::vector<v1::TournamentEvent>> streams_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_TOURNAMENT_AUDIT_H_
