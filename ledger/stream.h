// The two kinds of stream in the one log (ledger/README.md, "Tournament
// streams"), and the data each kind's Merkle leaf hashes. A game's stream is
// named by its id ("G1"); a tournament's by its resource name
// ("tournaments/T1"). Ids never contain '/' (proto/names/resource_name.h),
// so the two never collide.
#ifndef ARBITER_LEDGER_STREAM_H_
#define ARBITER_LEDGER_STREAM_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

inline constexpr absl::string_view kTournamentStreamPrefix = "tournaments/";

// What a tournament entry's leaf hashes before the event's bytes. It begins
// with a zero byte, which no protobuf message's encoding does (field
// number 0 is invalid), so no game leaf's data can be read as a tournament
// leaf's, nor the other way round.
inline constexpr absl::string_view kTournamentLeafPrefix("\0arbiter.v1.TournamentEvent\n", 28);

// True for a tournament's stream name ("tournaments/..."), false for a game id.
bool IsTournamentStream(absl::string_view stream);

// "tournaments/{id}"; INVALID_ARGUMENT when `id` is not a valid id.
absl::StatusOr<std::string> TournamentStream(absl::string_view tournament_id);

// The data a leaf hashes for the entry of `stream` whose stored bytes are
// `bytes`: the bytes for a game's event, kTournamentLeafPrefix + bytes for
// a tournament's. The audit, proofs, bundles, receipts and tiles all use it.
std::string LeafData(absl::string_view stream, absl::string_view bytes);

// LeafHash(LeafData(stream, bytes)).
Hash EntryLeafHash(absl::string_view stream, absl::string_view bytes);
inline Hash EntryLeafHash(const v1::LedgerEntry& entry) {
  return EntryLeafHash(entry.game_id(), entry.event());
}

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_STREAM_H_
