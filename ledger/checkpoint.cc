#include "ledger/checkpoint.h"

#include "absl/strings/str_cat.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {

absl::StatusOr<v1::Checkpoint> SignCheckpoint(const Signer& signer, uint64_t tree_size,
                                              const Hash& root, absl::Time issued_at,
                                              v1::Checkpoint::Reason reason,
                                              std::vector<std::string> ended_games) {
  v1::Checkpoint c;
  c.set_tree_size(tree_size);
  c.set_root_hash(std::string(AsBytes(root)));
  int64_t micros = absl::ToUnixMicros(issued_at);
  c.mutable_issued_at()->set_seconds(micros / 1000000);
  c.mutable_issued_at()->set_nanos(static_cast<int32_t>(micros % 1000000) * 1000);
  c.set_reason(reason);
  for (std::string& g : ended_games) c.add_ended_games(std::move(g));
  c.set_key_id(std::string(AsBytes(Sha256(signer.public_key_der()))));
  absl::StatusOr<std::string> sig = signer.Sign(SignedBytes(c));
  if (!sig.ok()) return sig.status();
  c.set_signature(*std::move(sig));
  return c;
}

std::string SignedBytes(const v1::Checkpoint& checkpoint) {
  v1::Checkpoint body = checkpoint;
  body.clear_signature();
  return CanonicalBytes(body);
}

absl::Status VerifyCheckpoint(const v1::Checkpoint& checkpoint, absl::string_view public_key_der) {
  if (checkpoint.key_id() != AsBytes(Sha256(public_key_der))) {
    return absl::DataLossError(absl::StrCat("checkpoint at size ", checkpoint.tree_size(),
                                            " was signed by another key (id ",
                                            ToHex(checkpoint.key_id()), ")"));
  }
  if (checkpoint.root_hash().size() != 32) {
    return absl::DataLossError(
        absl::StrCat("checkpoint at size ", checkpoint.tree_size(), " has no 32-byte root"));
  }
  absl::Status s = VerifySignature(public_key_der, SignedBytes(checkpoint), checkpoint.signature());
  if (!s.ok()) {
    return absl::DataLossError(
        absl::StrCat("checkpoint at size ", checkpoint.tree_size(), ": ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace arbiter::ledger
