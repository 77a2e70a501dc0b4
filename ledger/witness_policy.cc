#include "ledger/witness_policy.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arbiter::ledger {

absl::StatusOr<WitnessPolicy> WitnessPolicy::Make(const std::vector<std::string>& vkeys,
                                                  int required) {
  std::vector<CosignatureVerifier> witnesses;
  for (const std::string& vkey : vkeys) {
    absl::StatusOr<CosignatureVerifier> v = CosignatureVerifier::FromVerifierKey(vkey);
    if (!v.ok()) return v.status();
    for (const CosignatureVerifier& w : witnesses) {
      if (w.name() == v->name() && w.key_id() == v->key_id()) {
        return absl::InvalidArgumentError(absl::StrCat("witness ", w.name(), " given twice"));
      }
    }
    witnesses.push_back(*std::move(v));
  }
  if (required < 1 || static_cast<size_t>(required) > witnesses.size()) {
    return absl::InvalidArgumentError(absl::StrCat("--witnesses ", required, ": between 1 and the ",
                                                   witnesses.size(), " witness key(s) given"));
  }
  return WitnessPolicy(std::move(witnesses), required);
}

std::vector<std::string> WitnessPolicy::Cosigners(
    absl::string_view text, const std::vector<NoteSignature>& signatures) const {
  std::vector<std::string> names;
  for (const CosignatureVerifier& w : witnesses_) {
    for (const NoteSignature& sig : signatures) {
      if (w.Names(sig) && w.Verify(text, sig).ok()) {
        names.push_back(w.name());
        break;
      }
    }
  }
  return names;
}

absl::Status WitnessPolicy::Check(absl::string_view text,
                                  const std::vector<NoteSignature>& signatures) const {
  const std::vector<std::string> names = Cosigners(text, signatures);
  if (names.size() >= static_cast<size_t>(required_)) return absl::OkStatus();
  return absl::DataLossError(
      absl::StrCat("cosigned by ", names.size(), " of the ", required_, " witness(es) required",
                   names.empty() ? "" : absl::StrCat(" (", absl::StrJoin(names, ", "), ")")));
}

std::vector<NoteSignature> CosignaturesOf(absl::string_view note,
                                          const std::vector<std::string>& lines) {
  std::vector<NoteSignature> signatures;
  for (const std::string& line : lines) {
    // Each line on its own: one a parser refuses counts for nothing, and
    // takes no other with it.
    absl::StatusOr<SignedNote> with = ParseSignedNote(absl::StrCat(note, line));
    if (!with.ok()) continue;
    signatures.push_back(with->signatures.back());
  }
  return signatures;
}

absl::StatusOr<std::optional<Witnessed>> LatestWitnessed(
    const std::vector<v1::Checkpoint>& checkpoints, CosignatureStore& store,
    const WitnessPolicy& policy) {
  for (auto it = checkpoints.rbegin(); it != checkpoints.rend(); ++it) {
    if (it->note().empty()) continue;
    absl::StatusOr<std::vector<std::string>> lines = store.Lines(it->tree_size());
    if (!lines.ok()) return lines.status();
    if (lines->empty()) continue;
    const std::vector<NoteSignature> cosignatures = CosignaturesOf(it->note(), *lines);
    absl::StatusOr<SignedNote> note = ParseSignedNote(it->note());
    if (!note.ok()) return note.status();
    std::vector<std::string> names = policy.Cosigners(note->text, cosignatures);
    if (names.size() >= static_cast<size_t>(policy.required())) {
      return Witnessed{*it, std::move(names)};
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::ledger
