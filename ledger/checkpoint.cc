#include "ledger/checkpoint.h"

#include "absl/strings/str_cat.h"
#include "ledger/internal/checkpoint_note.h"
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
  if (!signer.origin().empty()) {
    absl::StatusOr<std::string> note = SignCheckpointNote(signer, tree_size, root);
    if (!note.ok()) return note.status();
    c.set_note(*std::move(note));
  }
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

namespace {

absl::Status Refused(const v1::Checkpoint& checkpoint, absl::string_view why) {
  return absl::DataLossError(absl::StrCat("checkpoint at size ", checkpoint.tree_size(), why));
}

// What is checked before the signature: the key id, then the root.
absl::Status CheckKeyIdAndRoot(const v1::Checkpoint& checkpoint, const Hash& key_id) {
  if (checkpoint.key_id() != AsBytes(key_id)) {
    return Refused(checkpoint, absl::StrCat(" was signed by another key (id ",
                                            ToHex(checkpoint.key_id()), ")"));
  }
  if (checkpoint.root_hash().size() != 32) return Refused(checkpoint, " has no 32-byte root");
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyCheckpoint(const v1::Checkpoint& checkpoint, const PublicKey& key,
                              const Hash& key_id, absl::string_view origin) {
  if (absl::Status s = CheckKeyIdAndRoot(checkpoint, key_id); !s.ok()) return s;
  absl::Status s = key.Verify(SignedBytes(checkpoint), checkpoint.signature());
  if (!s.ok()) return Refused(checkpoint, absl::StrCat(": ", s.message()));
  return VerifyCheckpointNote(checkpoint, key, origin);
}

absl::Status VerifyCheckpoint(const v1::Checkpoint& checkpoint, absl::string_view public_key_der,
                              absl::string_view origin) {
  const Hash key_id = Sha256(public_key_der);
  if (absl::Status s = CheckKeyIdAndRoot(checkpoint, key_id); !s.ok()) return s;
  absl::StatusOr<PublicKey> key = PublicKey::FromDer(public_key_der);
  if (!key.ok()) return Refused(checkpoint, absl::StrCat(": ", key.status().message()));
  return VerifyCheckpoint(checkpoint, *key, key_id, origin);
}

}  // namespace arbiter::ledger
