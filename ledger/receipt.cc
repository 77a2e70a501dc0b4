#include "ledger/receipt.h"
#include "ledger/stream.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "ledger/internal/checkpoint_note.h"
#include "ledger/merkle.h"
#include "ledger/signed_note.h"

namespace arbiter::ledger {
namespace {

constexpr absl::string_view kHeader = "c2sp.org/tlog-proof@v1";

absl::Status Malformed(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("not a receipt (c2sp.org/tlog-proof@v1): ", why));
}

// Standard base64 of exactly its bytes (no other spelling of them).
bool Base64Exactly(absl::string_view text, std::string* out) {
  return absl::Base64Unescape(text, out) && absl::Base64Escape(*out) == text;
}

}  // namespace

std::string FormatReceipt(const Receipt& r) {
  std::string out =
      absl::StrCat(kHeader, "\nextra ", absl::Base64Escape(r.entry), "\nindex ", r.index, "\n");
  for (const Hash& h : r.proof) absl::StrAppend(&out, absl::Base64Escape(AsBytes(h)), "\n");
  absl::StrAppend(&out, "\n", r.checkpoint);
  return out;
}

absl::StatusOr<Receipt> ParseReceipt(absl::string_view text) {
  const size_t blank = text.find("\n\n");
  if (blank == absl::string_view::npos) return Malformed("no empty line before the checkpoint");
  std::vector<absl::string_view> lines = absl::StrSplit(text.substr(0, blank), '\n');
  if (lines[0] != kHeader) return Malformed(absl::StrCat("the first line is not ", kHeader));
  Receipt r;
  if (lines.size() < 3 || !absl::ConsumePrefix(&lines[1], "extra ") ||
      !Base64Exactly(lines[1], &r.entry)) {
    return Malformed("no 'extra' line with the entry's bytes in base64");
  }
  absl::string_view index = lines[2];
  if (!absl::ConsumePrefix(&index, "index ") || index.empty() ||
      (index.size() > 1 && index[0] == '0') || !absl::SimpleAtoi(index, &r.index) ||
      absl::StrCat(r.index) != index) {
    return Malformed("no 'index N' line after the extra line");
  }
  for (size_t i = 3; i < lines.size(); ++i) {
    std::string bytes;
    Hash h;
    if (!Base64Exactly(lines[i], &bytes) || !HashFromBytes(bytes, &h)) {
      return Malformed(absl::StrCat("line ", i + 1, " is not a base64 SHA-256 hash"));
    }
    r.proof.push_back(h);
  }
  r.checkpoint = std::string(text.substr(blank + 2));
  return r;
}

absl::StatusOr<v1::Checkpoint> ReceiptCheckpoint(const std::vector<v1::Checkpoint>& checkpoints,
                                                 uint64_t position, CosignatureStore* store) {
  const v1::Checkpoint* best = nullptr;
  size_t best_count = 0;
  for (const v1::Checkpoint& c : checkpoints) {
    if (c.tree_size() < position || c.note().empty()) continue;
    size_t count = 0;
    if (store != nullptr) {
      absl::StatusOr<std::vector<std::string>> lines = store->Lines(c.tree_size());
      if (!lines.ok()) return lines.status();
      count = lines->size();
    }
    if (best == nullptr || count > best_count) {
      best = &c;
      best_count = count;
    }
  }
  if (best == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("no signed checkpoint covers position ",
                                                      position,
                                                      " yet (a server signs within "
                                                      "--sign-within of a write)"));
  }
  return *best;
}

absl::StatusOr<std::string> MakeReceipt(const v1::LedgerEntry& entry,
                                        const v1::Checkpoint& checkpoint,
                                        const std::vector<Hash>& proof, CosignatureStore* store) {
  if (checkpoint.note().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the checkpoint at size ", checkpoint.tree_size(), " has no note"));
  }
  std::string note = checkpoint.note();
  if (store != nullptr) {
    absl::StatusOr<std::vector<std::string>> lines = store->Lines(checkpoint.tree_size());
    if (!lines.ok()) return lines.status();
    absl::StrAppend(&note, absl::StrJoin(*lines, ""));
  }
  // The entry is the leaf's hashed data (stream.h): a tournament event's
  // bytes come with their prefix, so the proof checks as any other.
  return FormatReceipt(Receipt{LeafData(entry.game_id(), entry.event()), entry.position() - 1,
                               proof, std::move(note)});
}

absl::StatusOr<std::string> ExportReceipt(LogSource& log, CosignatureStore* store,
                                          uint64_t position) {
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = log.ReadLog(position - 1, 1);
  if (!entries.ok()) return entries.status();
  if (position == 0 || entries->empty() || entries->front().position() != position) {
    return absl::NotFoundError(absl::StrCat("no event at position ", position));
  }
  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = log.Checkpoints();
  if (!checkpoints.ok()) return checkpoints.status();
  absl::StatusOr<v1::Checkpoint> checkpoint = ReceiptCheckpoint(*checkpoints, position, store);
  if (!checkpoint.ok()) return checkpoint.status();
  absl::StatusOr<std::vector<Hash>> leaves = log.LeafHashes(checkpoint->tree_size());
  if (!leaves.ok()) return leaves.status();
  if (leaves->size() != checkpoint->tree_size() ||
      (*leaves)[position - 1] != EntryLeafHash(entries->front())) {
    return absl::DataLossError(absl::StrCat("the stored leaf of position ", position,
                                            " is not its event's hash: run `arbiter verify`"));
  }
  MerkleTree tree(*std::move(leaves));
  if (AsBytes(*tree.Root(checkpoint->tree_size())) != checkpoint->root_hash()) {
    return absl::DataLossError(absl::StrCat("the stored leaves do not make the root of the ",
                                            "checkpoint at size ", checkpoint->tree_size(),
                                            ": run `arbiter verify`"));
  }
  absl::StatusOr<std::vector<Hash>> proof =
      tree.InclusionProof(position - 1, checkpoint->tree_size());
  if (!proof.ok()) return proof.status();
  return MakeReceipt(entries->front(), *checkpoint, *proof, store);
}

absl::StatusOr<VerifiedReceipt> VerifyReceipt(absl::string_view text, const NoteVerifierKey& log,
                                              const WitnessPolicy* policy) {
  absl::StatusOr<Receipt> r = ParseReceipt(text);
  if (!r.ok()) return r.status();
  absl::StatusOr<SignedNote> note = ParseSignedNote(r->checkpoint);
  if (!note.ok()) return Malformed(note.status().message());
  absl::StatusOr<CheckpointBody> body = OpenCheckpointNote(r->checkpoint, log);
  if (absl::IsInvalidArgument(body.status())) return Malformed(body.status().message());
  if (!body.ok()) {
    return absl::DataLossError(
        absl::StrCat("the checkpoint is not signed by ", log.name, ": ", body.status().message()));
  }
  VerifiedReceipt v;
  if (policy != nullptr) {
    if (absl::Status s = policy->Check(note->text, note->signatures); !s.ok()) {
      return absl::DataLossError(absl::StrCat("the checkpoint is ", s.message()));
    }
    v.witnesses = policy->Cosigners(note->text, note->signatures);
  }
  if (r->index >= body->tree_size) {
    return absl::DataLossError(absl::StrCat("index ", r->index, " lies beyond the checkpoint's ",
                                            body->tree_size, " entries"));
  }
  if (absl::Status s =
          VerifyInclusion(r->index, body->tree_size, LeafHash(r->entry), r->proof, body->root);
      !s.ok()) {
    return absl::DataLossError(
        absl::StrCat("the entry is not proven in the signed tree: ", s.message()));
  }
  v.checkpoint = *std::move(body);
  v.position = r->index + 1;
  v.entry = std::move(r->entry);
  return v;
}

}  // namespace arbiter::ledger
