#include "ledger/witness.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "ledger/merkle.h"
#include "ledger/signed_note.h"
#include "ledger/tlog_checkpoint.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

constexpr size_t kMaxProofLines = 63;  // tlog-witness

WitnessAnswer Answer(int status, absl::string_view body) {
  return WitnessAnswer{status, "text/plain; charset=utf-8", absl::StrCat(body, "\n")};
}

// A decimal with no leading zero (unless it is 0), as tlog-witness and
// tlog-checkpoint write sizes.
bool ParseSize(absl::string_view s, uint64_t* out) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return absl::SimpleAtoi(s, out);
}

bool ParseHash(absl::string_view b64, Hash* out) {
  std::string bytes;
  return absl::Base64Unescape(b64, &bytes) && absl::Base64Escape(bytes) == b64 &&
         HashFromBytes(bytes, out);
}

struct Request {
  uint64_t old_size = 0;
  std::vector<Hash> proof;
  absl::string_view note;
};

bool ParseRequest(absl::string_view body, Request* r, std::string* why) {
  const size_t blank = body.find("\n\n");
  if (blank == absl::string_view::npos) {
    *why = "no empty line between the old size and proof and the checkpoint";
    return false;
  }
  r->note = body.substr(blank + 2);
  std::vector<absl::string_view> lines = absl::StrSplit(body.substr(0, blank), '\n');
  absl::string_view old = lines[0];
  if (!absl::ConsumePrefix(&old, "old ") || !ParseSize(old, &r->old_size)) {
    *why = "the first line is not 'old SIZE'";
    return false;
  }
  if (lines.size() - 1 > kMaxProofLines) {
    *why = absl::StrCat("more than ", kMaxProofLines, " consistency proof lines");
    return false;
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    Hash h;
    if (!ParseHash(lines[i], &h)) {
      *why = absl::StrCat("proof line ", i, " is not a base64 SHA-256 hash");
      return false;
    }
    r->proof.push_back(h);
  }
  return true;
}

// Signatures by keys this witness does not trust for the origin are
// ignored; one by a trusted key that fails makes the note malformed (403).
// The refusal, or none when a trusted key signed the note.
std::optional<WitnessAnswer> CheckTrustedSignature(absl::string_view note,
                                                   const std::vector<NoteVerifierKey>& keys,
                                                   const std::string& origin) {
  bool signed_by_trusted = false;
  for (const NoteVerifierKey& key : keys) {
    absl::StatusOr<SignedNote> opened = OpenSignedNote(note, key);
    if (absl::IsNotFound(opened.status())) continue;
    if (!opened.ok()) return Answer(403, opened.status().message());
    signed_by_trusted = true;
  }
  if (!signed_by_trusted) {
    return Answer(403, absl::StrCat("no signature by a key trusted for ", origin));
  }
  return std::nullopt;
}

// The new checkpoint extends the one last cosigned for its log (of size
// `req.old_size`, `latest` when above 0): the empty tree's root at size 0,
// the same root at the same size (else a fork), a valid consistency proof
// between them otherwise (tlog-witness: 422 when not). The refusal, or none.
std::optional<WitnessAnswer> CheckConsistent(const Request& req, const CheckpointBody& cp,
                                             const std::optional<WitnessedCheckpoint>& latest) {
  if (cp.tree_size == 0 && cp.root != EmptyRoot()) {
    return Answer(422, "a checkpoint of size 0 must have the empty tree's root");
  }
  if (req.old_size == 0) {
    if (!req.proof.empty()) return Answer(422, "a consistency proof from size 0 must be empty");
  } else if (req.old_size == cp.tree_size) {
    if (cp.root != latest->root) {
      return Answer(422, absl::StrCat("a fork: size ", cp.tree_size, " was cosigned with root ",
                                      absl::Base64Escape(AsBytes(latest->root)), ", not ",
                                      absl::Base64Escape(AsBytes(cp.root))));
    }
  } else if (absl::Status s =
                 VerifyConsistency(req.old_size, cp.tree_size, latest->root, cp.root, req.proof);
             !s.ok()) {
    return Answer(422, absl::StrCat("not consistent with the checkpoint cosigned at size ",
                                    req.old_size, ": ", s.message()));
  }
  return std::nullopt;
}

}  // namespace

Witness::Witness(Cosigner cosigner, Logs logs, std::unique_ptr<WitnessState> state)
    : cosigner_(std::move(cosigner)), logs_(std::move(logs)), state_(std::move(state)) {}

WitnessAnswer Witness::AddCheckpoint(absl::string_view request) {
  Request req;
  std::string why;
  if (!ParseRequest(request, &req, &why)) return Answer(400, why);
  absl::StatusOr<SignedNote> note = ParseSignedNote(req.note);
  if (!note.ok()) return Answer(400, note.status().message());
  absl::StatusOr<CheckpointBody> body = ParseCheckpointBody(note->text);
  if (!body.ok()) return Answer(400, body.status().message());
  const CheckpointBody& cp = *body;
  auto log = logs_.find(cp.origin);
  if (log == logs_.end()) return Answer(404, absl::StrCat("unknown log: ", cp.origin));
  if (std::optional<WitnessAnswer> refused =
          CheckTrustedSignature(req.note, log->second, cp.origin)) {
    return *std::move(refused);
  }
  if (req.old_size > cp.tree_size) {
    return Answer(
        400, absl::StrCat("old size ", req.old_size, " is above the checkpoint's ", cp.tree_size));
  }

  absl::MutexLock lock(&mu_);
  const std::optional<WitnessedCheckpoint> latest = state_->Get(cp.origin);
  const uint64_t latest_size = latest.has_value() ? latest->size : 0;
  if (req.old_size != latest_size) {
    return WitnessAnswer{409, "text/x.tlog.size", absl::StrCat(latest_size, "\n")};
  }
  if (std::optional<WitnessAnswer> refused = CheckConsistent(req, cp, latest)) {
    return *std::move(refused);
  }
  absl::StatusOr<std::string> cosignature = cosigner_.CosignatureLine(note->text, absl::Now());
  if (!cosignature.ok()) return Answer(500, cosignature.status().message());
  std::string recorded(req.note);
  if (!recorded.empty() && recorded.back() != '\n') recorded += '\n';
  recorded += *cosignature;
  if (absl::Status s = state_->Put(cp.origin, WitnessedCheckpoint{cp.tree_size, cp.root, recorded});
      !s.ok()) {
    return Answer(503, s.message());
  }
  return WitnessAnswer{200, "text/plain; charset=utf-8", *std::move(cosignature)};
}

std::optional<std::string> Witness::LatestCheckpoint(absl::string_view origin_hash) const {
  for (const auto& [origin, keys] : logs_) {
    if (Sha256Hex(origin) != origin_hash) continue;
    std::optional<WitnessedCheckpoint> latest = state_->Get(origin);
    if (!latest.has_value()) return std::nullopt;
    return latest->note;
  }
  return std::nullopt;
}

}  // namespace arbiter::ledger
