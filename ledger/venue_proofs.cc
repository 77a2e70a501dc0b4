#include "ledger/venue_proofs.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/internal/venue_tables.h"
#include "ledger/store.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

// The bundle as stored: every entry's place and proof, no event or ruling.
std::string StoredBytes(const v1::AuditBundle& bundle) {
  v1::AuditBundle proof = bundle;
  for (v1::ProvenEntry& p : *proof.mutable_entries()) {
    p.mutable_entry()->clear_event();
    p.mutable_entry()->clear_rulings();
  }
  return CanonicalBytes(proof);
}

}  // namespace

std::string VenueId(const std::string& public_key_der) { return ToHex(Sha256(public_key_der)); }

absl::Status FillHeldEntries(v1::AuditBundle& bundle, const std::vector<v1::LedgerEntry>& held) {
  for (int i = 0; i < bundle.entries_size(); ++i) {
    v1::LedgerEntry* e = bundle.mutable_entries(i)->mutable_entry();
    if (e->revision() != static_cast<uint64_t>(i) + 1) {
      return absl::FailedPreconditionError(
          absl::StrCat("the venue's entry ", i + 1, " is revision ", e->revision()));
    }
    if (!e->event().empty()) {
      if (static_cast<size_t>(i) < held.size() && held[i].event() != e->event()) {
        return absl::DataLossError(absl::StrCat("the federation's copy of game '", bundle.game_id(),
                                                "' differs from the venue's at "
                                                "revision ",
                                                i + 1));
      }
      continue;
    }
    if (static_cast<size_t>(i) >= held.size()) {
      return absl::FailedPreconditionError(
          absl::StrCat("revision ", i + 1, " comes without its event, and the federation holds ",
                       held.size(), " event(s) of game '", bundle.game_id(), "'"));
    }
    e->set_event(held[i].event());
    *e->mutable_rulings() = held[i].rulings();
  }
  return absl::OkStatus();
}

VenueProofs::VenueProofs(std::unique_ptr<VenueTables> store, bool tables)
    : store_(std::move(store)), tables_(tables) {}

VenueProofs::~VenueProofs() = default;

absl::StatusOr<std::unique_ptr<VenueTables>> VenueProofs::Connect(const std::string& location,
                                                                  bool read_only) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = OpenStore(location);
  if (!store.ok()) return store.status();
  return (*store)->OpenVenueTables(read_only);
}

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::Open(const std::string& location) {
  absl::StatusOr<std::unique_ptr<VenueTables>> connected = Connect(location, false);
  if (!connected.ok()) return connected.status();
  std::unique_ptr<VenueTables> store = *std::move(connected);
  absl::StatusOr<bool> ledger = store->Exists("events");
  if (!ledger.ok()) return ledger.status();
  if (!*ledger) {
    return absl::FailedPreconditionError(absl::StrCat("no ledger at ", location));
  }
  if (absl::Status s = store->CreateTables(); !s.ok()) return s;
  return std::unique_ptr<VenueProofs>(new VenueProofs(std::move(store), true));
}

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::OpenForReading(
    const std::string& location) {
  absl::StatusOr<std::unique_ptr<VenueTables>> connected = Connect(location, true);
  if (!connected.ok()) return connected.status();
  std::unique_ptr<VenueTables> store = *std::move(connected);
  absl::StatusOr<bool> tables = store->Exists("venue_proofs");
  if (!tables.ok()) return tables.status();
  return std::unique_ptr<VenueProofs>(new VenueProofs(std::move(store), *tables));
}

absl::StatusOr<std::optional<VenueGame>> VenueProofs::Find(const std::string& game_id) {
  if (!tables_ || game_id.empty()) return std::nullopt;
  absl::StatusOr<std::vector<VenueGame>> rows = store_->Games(game_id);
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::nullopt;
  return rows->front();
}

absl::StatusOr<std::vector<VenueGame>> VenueProofs::Games() {
  if (!tables_) return std::vector<VenueGame>();
  return store_->Games("");
}

absl::Status VenueProofs::Store(const v1::AuditBundle& bundle) {
  const std::string bytes = StoredBytes(bundle);
  const int64_t revisions = bundle.entries_size();
  absl::StatusOr<std::optional<VenueGame>> held = Find(bundle.game_id());
  if (!held.ok()) return held.status();
  if (!*held) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", bundle.game_id(), "' is not a synced game"));
  }
  if (absl::Status s = store_->InsertProof(bundle.game_id(), revisions, bytes); !s.ok()) return s;
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> stored =
      store_->Proofs(bundle.game_id(), revisions);
  if (!stored.ok()) return stored.status();
  if (stored->size() != 1 || stored->front().second != bytes) {
    return absl::AlreadyExistsError(absl::StrCat("another venue proof of the first ", revisions,
                                                 " revision(s) of game '", bundle.game_id(),
                                                 "' is stored"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::AuditBundle>> VenueProofs::Proofs(const std::string& game_id) {
  std::vector<v1::AuditBundle> out;
  if (!tables_) return out;
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> rows = store_->Proofs(game_id, 0);
  if (!rows.ok()) return rows.status();
  for (const auto& [revisions, proof] : *rows) {
    if (!out.emplace_back().ParseFromString(proof)) {
      return absl::DataLossError(absl::StrCat("the venue proof of the first ", revisions,
                                              " revision(s) of game '", game_id,
                                              "' does not parse"));
    }
  }
  return out;
}

}  // namespace arbiter::ledger
