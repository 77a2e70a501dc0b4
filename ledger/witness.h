// A witness of other servers' logs (C2SP tlog-witness): it is given a
// log's new checkpoint with a consistency proof from the last one it
// cosigned for that log, checks both, records the new one durably and only
// then answers with its cosignature (cosignature.h). So once a log has
// shown a witness one history, it cannot have it cosign another (a fork,
// a rollback): the split view a venue could otherwise show a federation and
// a player is caught by whoever asks for the witness's cosignature.
//
// What is checked, and the HTTP status each refusal has in tlog-witness:
//   400  a malformed request or note, or an old size above the checkpoint's;
//   404  an origin this witness was not configured for;
//   403  no valid signature by a key trusted for the origin (a signature
//        line naming a trusted key that does not verify is one);
//   409  an old size other than the size of the latest checkpoint it
//        cosigned for the origin (the answer's body is that size);
//   422  a size-0 checkpoint whose root is not the empty tree's, a proof
//        given from size 0, a consistency proof that fails, or an equal
//        size with another root (a fork);
//   503  the state could not be written (nothing was cosigned).
#ifndef ARBITER_LEDGER_WITNESS_H_
#define ARBITER_LEDGER_WITNESS_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "ledger/cosignature.h"
#include "ledger/note_key.h"
#include "ledger/witness_state.h"

namespace arbiter::ledger {

// An HTTP answer as tlog-witness defines it.
struct WitnessAnswer {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class Witness {
 public:
  // The logs it witnesses: origin → the keys trusted to sign its
  // checkpoints (a signed-note key named as the origin).
  using Logs = std::map<std::string, std::vector<NoteVerifierKey>, std::less<>>;

  Witness(Cosigner cosigner, Logs logs, std::unique_ptr<WitnessState> state);

  // POST <prefix>/add-checkpoint with `request` as its body.
  WitnessAnswer AddCheckpoint(absl::string_view request);

  // GET <monitoring prefix>/<origin hash>/checkpoint: the latest checkpoint
  // cosigned for the origin whose lower-case hex SHA-256 is `origin_hash`,
  // with the log's signature and this witness's; nullopt if none.
  std::optional<std::string> LatestCheckpoint(absl::string_view origin_hash) const;

  const Cosigner& cosigner() const { return cosigner_; }

 private:
  const Cosigner cosigner_;
  const Logs logs_;
  const std::unique_ptr<WitnessState> state_;
  // Held from the check of the old size to the durable record of the new
  // checkpoint, so that no request rolls back another (tlog-witness).
  absl::Mutex mu_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WITNESS_H_
