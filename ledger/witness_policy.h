// Which witnesses a verifier trusts, and how many of them must have
// cosigned a checkpoint before it is believed (C2SP tlog-proof's "k valid
// cosignatures out of n known witnesses"): `verify --witnesses K --witness
// VKEY...`. A checkpoint so cosigned was, as of each cosignature's time, the
// only history of its log those witnesses had seen: a venue cannot show it
// to one reader and another history to the next without K witnesses
// lying with it.
#ifndef ARBITER_LEDGER_WITNESS_POLICY_H_
#define ARBITER_LEDGER_WITNESS_POLICY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/cosignature.h"
#include "ledger/cosignature_store.h"
#include "ledger/log_source.h"
#include "ledger/signed_note.h"

namespace arbiter::ledger {

class WitnessPolicy {
 public:
  // INVALID_ARGUMENT for a malformed vkey, the same witness twice, or
  // `required` above the number of keys (or below 1).
  static absl::StatusOr<WitnessPolicy> Make(const std::vector<std::string>& vkeys, int required);

  int required() const { return required_; }
  size_t known() const { return witnesses_.size(); }

  // The names of the trusted witnesses with a valid cosignature of the
  // note text `text` among `signatures` (each witness once).
  std::vector<std::string> Cosigners(absl::string_view text,
                                     const std::vector<NoteSignature>& signatures) const;
  // OK when at least required() of them did; DATA_LOSS saying how many did
  // otherwise.
  absl::Status Check(absl::string_view text, const std::vector<NoteSignature>& signatures) const;

 private:
  WitnessPolicy(std::vector<CosignatureVerifier> witnesses, int required)
      : witnesses_(std::move(witnesses)), required_(required) {}
  std::vector<CosignatureVerifier> witnesses_;
  int required_;
};

// The signatures of `lines` (signature lines kept for the checkpoint
// `note`), each parsed as the note's; those a parser refuses are left out.
std::vector<NoteSignature> CosignaturesOf(absl::string_view note,
                                          const std::vector<std::string>& lines);

// The latest of `checkpoints` whose note the policy's witnesses cosigned
// (their lines in `store`), and the witnesses that did; nullopt if none.
struct Witnessed {
  v1::Checkpoint checkpoint;
  std::vector<std::string> witnesses;
};
absl::StatusOr<std::optional<Witnessed>> LatestWitnessed(
    const std::vector<v1::Checkpoint>& checkpoints, CosignatureStore& store,
    const WitnessPolicy& policy);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WITNESS_POLICY_H_
