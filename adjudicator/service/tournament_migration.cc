#include "adjudicator/service/tournament_migration.h"

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "adjudicator/engine/proto_time.h"
#include "ledger/entry_bounds.h"
#include "ledger/sqlite.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter::tournament {
namespace {

// A file an earlier server left with commits in its write-ahead log: they
// are checkpointed into the file itself (the rows do not change), so that
// the file alone, kept read-only, is the whole table.
absl::Status FoldWriteAheadLog(const std::string& path) {
  std::error_code ec;
  const std::string wal = path + "-wal";
  if (!std::filesystem::exists(wal, ec) || std::filesystem::file_size(wal, ec) == 0) {
    return absl::OkStatus();
  }
  if (access(path.c_str(), W_OK) != 0) return absl::OkStatus();  // OpenReadOnly says why
  absl::StatusOr<ledger::Db> db = ledger::Db::Open(path, SQLITE_OPEN_READWRITE);
  if (!db.ok()) return db.status();
  return db->Exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

v1::TournamentEvent MigratedEvent(const LegacyTournaments& legacy) {
  v1::TournamentEvent e;
  ToProto(absl::Now(), e.mutable_at());
  e.set_actor("arbiter upgrade");
  e.mutable_migrated()->set_source(kLegacyTournamentsFile);
  e.mutable_migrated()->set_dump_sha256(legacy.dump_sha256);
  e.mutable_migrated()->set_dump_rows(legacy.rows);
  return e;
}

// Appends `events` from index `from` on (the stream holds the ones before),
// in appends that stay under the ledger's bound on an append's bytes.
absl::Status AppendFrom(ledger::Ledger& ledger, const std::string& id,
                        const std::vector<v1::TournamentEvent>& events, size_t from) {
  while (from < events.size()) {
    std::vector<v1::TournamentEvent> batch;
    size_t bytes = 0;
    for (size_t i = from; i < events.size(); ++i) {
      const size_t size = events[i].ByteSizeLong();
      if (!batch.empty() && bytes + size > ledger::kMaxAppendBytes / 2) break;
      bytes += size;
      batch.push_back(events[i]);
    }
    absl::StatusOr<std::vector<v1::LedgerEntry>> appended = ledger.AppendAndWait(
        ledger::AppendRequest::Tournament(id,
                                          from == 0 ? ledger::ExpectedRevision::NoStream()
                                                    : ledger::ExpectedRevision::Exactly(from),
                                          batch));
    if (!appended.ok()) return appended.status();
    from += batch.size();
  }
  return absl::OkStatus();
}

// True when `held` (the ledger's stream) begins with `file`'s events, each
// the same bytes once canonical.
bool BeginsWith(const std::vector<v1::TournamentEvent>& held,
                const std::vector<v1::TournamentEvent>& file, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (CanonicalBytes(held[i]) != CanonicalBytes(file[i])) return false;
  }
  return true;
}

// Where one tournament of the file stands in the ledger. The stream holds
// the file's events then `migrated` once moved (and may have grown since):
// nullopt, nothing to do. It holds a prefix of them (a move cut off): the
// revision to append after. Anything else is another tournament of the
// same id: FAILED_PRECONDITION naming it.
absl::StatusOr<std::optional<size_t>> MovedSoFar(ledger::Ledger& ledger, const std::string& id,
                                                 const std::vector<v1::TournamentEvent>& events) {
  absl::StatusOr<std::vector<v1::TournamentEvent>> held = ledger.ReadTournament(id);
  if (!held.ok() && !absl::IsNotFound(held.status())) return held.status();
  std::vector<v1::TournamentEvent> have;
  if (held.ok()) have = *std::move(held);
  const size_t n = events.size();
  if (have.size() > n && have[n].has_migrated() && BeginsWith(have, events, n)) {
    return std::nullopt;
  }
  if (have.size() > n || !BeginsWith(have, events, have.size())) {
    return absl::FailedPreconditionError(
        absl::StrCat("tournament '", id, "' of ", kLegacyTournamentsFile,
                     " cannot move into the ledger: the ledger holds a tournament '", id,
                     "' with other events (merge clashing ids by hand: rename one of them)"));
  }
  return have.size();
}

// One tournament of the file into the ledger, from where it stands.
absl::Status MigrateOne(ledger::Ledger& ledger, const std::string& id,
                        std::vector<v1::TournamentEvent> events, const v1::TournamentEvent& note) {
  absl::StatusOr<std::optional<size_t>> from = MovedSoFar(ledger, id, events);
  if (!from.ok()) return from.status();
  if (!from->has_value()) return absl::OkStatus();
  events.push_back(note);
  return AppendFrom(ledger, id, events, **from);
}

}  // namespace

absl::StatusOr<LegacyTournaments> ReadLegacyTournaments(const std::string& path) {
  absl::StatusOr<ledger::Db> db = ledger::Db::OpenReadOnly(path);
  if (!db.ok()) return db.status();
  absl::StatusOr<ledger::Stmt> q =
      ledger::Stmt::Prepare(*db,
                            "SELECT tournament_id, revision, event FROM tournament_events "
                            "ORDER BY tournament_id, revision");
  if (!q.ok()) return q.status();
  LegacyTournaments out;
  std::string dump;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    const std::string id = q->Text(0);
    const int64_t revision = q->Int(1);
    const std::string blob = q->Text(2);
    absl::StrAppend(&dump, id, " ", revision, " ",
                    absl::AsciiStrToUpper(absl::BytesToHexString(blob)), "\n");
    std::vector<v1::TournamentEvent>& events = out.streams[id];
    if (revision != static_cast<int64_t>(events.size()) + 1) {
      return absl::DataLossError(absl::StrCat(path, ": tournament '", id, "' jumps from revision ",
                                              events.size(), " to ", revision));
    }
    if (!events.emplace_back().ParseFromString(blob)) {
      return absl::DataLossError(
          absl::StrCat(path, ": tournament '", id, "' event ", revision, " does not parse"));
    }
    ++out.rows;
  }
  out.dump_sha256 = Sha256Hex(dump);
  return out;
}

absl::Status CheckLegacyTournaments(ledger::Ledger& ledger, const LegacyTournaments& legacy) {
  for (const auto& [id, events] : legacy.streams) {
    if (absl::Status s = MovedSoFar(ledger, id, events).status(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status MigrateLegacyTournaments(ledger::Ledger& ledger, const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kLegacyTournamentsFile).string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return absl::OkStatus();
  if (absl::Status s = FoldWriteAheadLog(path); !s.ok()) return s;
  absl::StatusOr<LegacyTournaments> legacy = ReadLegacyTournaments(path);
  if (!legacy.ok()) return legacy.status();
  const v1::TournamentEvent note = MigratedEvent(*legacy);
  for (auto& [id, events] : legacy->streams) {  // a std::map: in id order
    if (absl::Status s = MigrateOne(ledger, id, std::move(events), note); !s.ok()) return s;
  }
  // Kept beside the ledger as it was, read-only: the record it came from.
  std::filesystem::permissions(path,
                               std::filesystem::perms::owner_write |
                                   std::filesystem::perms::group_write |
                                   std::filesystem::perms::others_write,
                               std::filesystem::perm_options::remove, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat("cannot make ", path, " read-only: ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace arbiter::tournament
