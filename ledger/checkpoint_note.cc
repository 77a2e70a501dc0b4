#include "ledger/internal/checkpoint_note.h"

#include "absl/strings/str_cat.h"
#include "ledger/signed_note.h"

namespace arbiter::ledger {

absl::StatusOr<std::string> SignCheckpointNote(const Signer& signer, uint64_t tree_size,
                                               const Hash& root) {
  if (signer.origin().empty()) {
    return absl::FailedPreconditionError("the signing key has no log origin to sign notes under");
  }
  absl::StatusOr<std::string> text = FormatCheckpointBody({signer.origin(), tree_size, root, {}});
  if (!text.ok()) return text.status();
  absl::StatusOr<NoteSignature> sig = SignNoteText(*text, signer, signer.origin());
  if (!sig.ok()) return sig.status();
  return FormatSignedNote({*std::move(text), {*std::move(sig)}});
}

absl::StatusOr<std::string> CheckpointNote(const v1::Checkpoint& checkpoint, const Signer& signer) {
  if (!checkpoint.note().empty()) return checkpoint.note();
  Hash root;
  if (!HashFromBytes(checkpoint.root_hash(), &root)) {
    return absl::DataLossError(
        absl::StrCat("checkpoint at size ", checkpoint.tree_size(), " has no 32-byte root"));
  }
  return SignCheckpointNote(signer, checkpoint.tree_size(), root);
}

absl::StatusOr<CheckpointBody> OpenCheckpointNote(absl::string_view note,
                                                  const NoteVerifierKey& key) {
  absl::StatusOr<SignedNote> opened = OpenSignedNote(note, key);
  if (!opened.ok()) return opened.status();
  absl::StatusOr<CheckpointBody> body = ParseCheckpointBody(opened->text);
  if (!body.ok()) return body.status();
  if (body->origin != key.name) {
    return absl::DataLossError(absl::StrCat("the checkpoint's origin '", body->origin,
                                            "' is not the key's name '", key.name, "'"));
  }
  return body;
}

absl::Status VerifyCheckpointNote(const v1::Checkpoint& checkpoint, const PublicKey& key,
                                  absl::string_view origin) {
  if (checkpoint.note().empty()) return absl::OkStatus();
  auto refused = [&](absl::string_view why) {
    return absl::DataLossError(
        absl::StrCat("checkpoint at size ", checkpoint.tree_size(), "'s note ", why));
  };
  absl::StatusOr<std::string> raw = RawEd25519PublicKey(key.der());
  if (!raw.ok()) return refused(raw.status().message());
  absl::StatusOr<SignedNote> parsed = ParseSignedNote(checkpoint.note());
  if (!parsed.ok()) return refused(parsed.status().message());
  absl::StatusOr<CheckpointBody> body = ParseCheckpointBody(parsed->text);
  if (!body.ok()) return refused(body.status().message());
  if (!origin.empty() && body->origin != origin) {
    return refused(absl::StrCat("names the log '", body->origin, "', not '", origin, "'"));
  }
  const NoteVerifierKey note_key{body->origin, NoteKeyId(body->origin, kNoteEd25519, *raw), *raw};
  if (absl::Status s = VerifyNoteSignature(*parsed, note_key, key); !s.ok()) {
    return refused(s.message());
  }
  if (body->tree_size != checkpoint.tree_size() || AsBytes(body->root) != checkpoint.root_hash()) {
    return refused("states another size or root than the checkpoint");
  }
  return absl::OkStatus();
}

}  // namespace arbiter::ledger
