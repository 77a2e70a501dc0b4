// The ledger as a tiled transparency log (C2SP tlog-tiles), readable by any
// C2SP client (Go's sumdb/tlog, Tessera's fsck, witnesses), with no login:
//
//   /checkpoint                 the latest checkpoint as a signed note
//                               (text/plain; cached for at most 2 s)
//   /tile/<L>/<N>[.p/<W>]       Merkle tree hashes, 32 bytes each
//   /tile/entries/<N>[.p/<W>]   entry bundles: each event's canonical bytes
//                               (what its leaf hash hashes), prefixed with
//                               their length as a big-endian uint16
//
// Only what the latest checkpoint covers is served: a tile beyond it is 404,
// so every byte served is under a signature. Full tiles never change (cached
// a year, immutable); partial ones are short-lived (10 s). What they hold is
// what an auditor's bundle already gives out (.github/SECURITY.md).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TLOG_TILES_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TLOG_TILES_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "httplib.h"
#include "ledger/ledger.h"
#include "ledger/tile_path.h"

namespace arbiter::service::console {

class TlogTiles {
 public:
  // `ledger` is not owned and must outlive this.
  explicit TlogTiles(ledger::Ledger* ledger);

  // Adds the routes above to `http`.
  void Route(httplib::Server& http);

  // The body of a tile within the latest checkpoint. NOT_FOUND for a tile
  // beyond it (or an empty log); INTERNAL for an entry over 65535 bytes,
  // which an entry bundle cannot carry; the ledger's errors.
  absl::StatusOr<std::string> Tile(const ledger::TileAddress& tile);

 private:
  struct Published {
    uint64_t tree_size = 0;
    std::string note;
  };
  // The latest checkpoint, from the ledger's checkpoint index (which sees
  // each one signed as it is committed); its note made once per checkpoint.
  absl::StatusOr<Published> Latest();

  ledger::Ledger* const ledger_;
  absl::Mutex mu_;
  Published cached_ ABSL_GUARDED_BY(mu_);  // the note of the latest seen
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TLOG_TILES_H_
