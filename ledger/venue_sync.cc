#include "ledger/venue_sync.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/audit.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
namespace {

// Whether the federation recorded the same rulings for an event as the venue.
bool SameRulings(const v1::LedgerEntry& federation, const v1::LedgerEntry& venue) {
  if (federation.rulings_size() != venue.rulings_size()) return false;
  for (int i = 0; i < venue.rulings_size(); ++i) {
    if (CanonicalBytes(federation.rulings(i)) != CanonicalBytes(venue.rulings(i))) return false;
  }
  return true;
}

// The pin the federation records for the game, checked against the
// venue's before anything is written: a gameCreated with no rules version
// is pinned to the latest version the judging side knows.
absl::Status CheckPin(const v1::AuditBundle& bundle, const v1::GameCreated& created,
                      Ledger& federation, Judge& judge, uint64_t federation_revision) {
  std::string pin;
  if (federation_revision > 0) {
    absl::StatusOr<std::string> recorded = federation.log().RulesPin(bundle.game_id());
    if (!recorded.ok()) return recorded.status();
    pin = *recorded;
  } else {
    absl::StatusOr<std::unique_ptr<GameJudge>> fold = judge.Open(bundle.game_id(), created);
    if (!fold.ok()) return fold.status();
    pin = (*fold)->RulesPin();
  }
  if (pin != bundle.rules_pin()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "game '", bundle.game_id(), "' was judged at the venue under ", bundle.rules_pin(),
        " and would be under ", pin, " here: the federation needs the venue's rules version"));
  }
  return absl::OkStatus();
}

// The venue's events of a tournament from revision `at` on, `n` of them.
absl::StatusOr<std::vector<v1::TournamentEvent>> TournamentBatch(const v1::AuditBundle& bundle,
                                                                 uint64_t at, uint64_t n) {
  std::vector<v1::TournamentEvent> batch;
  for (uint64_t i = at; i < at + n; ++i) {
    absl::StatusOr<v1::TournamentEvent> event =
        ParseCanonical<v1::TournamentEvent>(bundle.entries(i).entry().event());
    if (!event.ok()) return event.status();
    batch.push_back(*std::move(event));
  }
  return batch;
}

// Appends the venue's tournament events after the `held` the federation
// has, each batch with the revision before it expected (the first claiming
// the stream when `claim`), checked to be the venue's bytes.
absl::Status AppendTournamentEvents(const v1::AuditBundle& bundle, const std::string& id,
                                    uint64_t held, bool claim, const std::string& venue_key,
                                    Ledger& federation, const VenueSyncOptions& options,
                                    VenueSyncResult& result) {
  const uint64_t venue_revisions = bundle.entries_size();
  for (uint64_t at = held; at < venue_revisions;) {
    const uint64_t n = std::min<uint64_t>(venue_revisions - at, std::max<size_t>(options.batch, 1));
    absl::StatusOr<std::vector<v1::TournamentEvent>> batch = TournamentBatch(bundle, at, n);
    if (!batch.ok()) return batch.status();
    AppendRequest request =
        AppendRequest::Tournament(id, ExpectedRevision::Exactly(at), *std::move(batch));
    if (claim && at == 0) request.venue_key_der = venue_key;
    absl::StatusOr<std::vector<v1::LedgerEntry>> appended =
        federation.AppendAndWait(std::move(request));
    if (!appended.ok()) return appended.status();
    for (size_t k = 0; k < appended->size(); ++k) {
      if ((*appended)[k].event() != bundle.entries(at + k).entry().event()) {
        return absl::DataLossError(absl::StrCat("tournament '", id, "' revision ", at + k + 1,
                                                " was recorded here with other bytes than the "
                                                "venue's"));
      }
    }
    result.appended += appended->size();
    at += n;
    if (options.appended) options.appended(result.appended);
  }
  return absl::OkStatus();
}

// A game's sync needs a judge (every game is re-adjudicated) and a bundle
// of a game with entries; a caller's mistake, before anything is read.
absl::Status CheckGameSyncRequest(const v1::AuditBundle& bundle, const VenueSyncOptions& options) {
  if (options.judge == nullptr) return absl::InvalidArgumentError("a venue sync needs a judge");
  if (bundle.entries_size() == 0) {
    return absl::InvalidArgumentError("the venue's bundle has no entries");
  }
  if (IsTournamentStream(bundle.game_id())) {
    return absl::InvalidArgumentError("a tournament's bundle is synced by SyncVenueTournament");
  }
  return absl::OkStatus();
}

// The key a venue's game is checked under (--venue-pubkey's, else the one
// it was first synced under, else the bundle's), once what the federation
// holds of the game is found to be the venue's to extend: no more events
// than the venue's record (unless partial), and not a game of its own.
absl::StatusOr<std::string> VenueGameKey(const v1::AuditBundle& bundle,
                                         const std::optional<VenueGame>& held, uint64_t held_events,
                                         const VenueSyncOptions& options) {
  const std::string& game = bundle.game_id();
  const uint64_t venue_revisions = bundle.entries_size();
  if (held_events > venue_revisions && !options.partial) {
    return absl::DataLossError(absl::StrCat("the federation holds ", held_events,
                                            " event(s) of game '", game, "', the venue's record ",
                                            venue_revisions));
  }
  if (!held && held_events > 0) {
    return absl::AlreadyExistsError(absl::StrCat(
        "game '", game, "' is the federation's own (recorded there, not synced from a venue)"));
  }
  const std::string key = !options.venue_key_der.empty() ? options.venue_key_der
                          : held                         ? held->public_key_der
                                                         : bundle.public_key();
  if (held && held->public_key_der != key) {
    return absl::AlreadyExistsError(absl::StrCat(
        "game '", game, "' was synced from another venue (", held->venue_id.substr(0, 16), "…)"));
  }
  return key;
}

// The venue's proof of its game, re-adjudicated: nothing is written for a
// game it does not prove.
absl::StatusOr<AuditReport> ProveVenueGame(const v1::AuditBundle& bundle,
                                           const AuditOptions& audit) {
  absl::StatusOr<AuditReport> report = AuditBundle(bundle, audit);
  if (!report.ok()) return report.status();
  if (!report->intact) {
    return absl::DataLossError(
        absl::StrCat("the venue's record of game '", bundle.game_id(), "' does not prove itself",
                     report->first_bad_position > 0
                         ? absl::StrCat(" at venue position ", report->first_bad_position)
                         : "",
                     ": ", report->why));
  }
  return report;
}

// Appends the venue's events of a game from `result.already` on, in
// batches, each with the revision before it expected (the first claiming
// the game when `claim`), each checked to be the venue's bytes and rulings.
absl::Status AppendGameEvents(const v1::AuditBundle& bundle, bool claim,
                              const std::string& venue_key, Ledger& federation,
                              const VenueSyncOptions& options, VenueSyncResult& result) {
  const std::string& game = bundle.game_id();
  const uint64_t venue_revisions = bundle.entries_size();
  for (uint64_t at = result.already; at < venue_revisions;) {
    const uint64_t end =
        std::min<uint64_t>(venue_revisions, at + std::max<size_t>(options.batch, 1));
    std::vector<v1::Event> batch;
    for (uint64_t i = at; i < end; ++i) {
      absl::StatusOr<v1::Event> event =
          ParseCanonical<v1::Event>(bundle.entries(i).entry().event());
      if (!event.ok()) return event.status();
      batch.push_back(*std::move(event));
    }
    AppendRequest request =
        AppendRequest::Game(game, ExpectedRevision::Exactly(at), std::move(batch));
    request.synced = true;  // judged at the venue: folded as the audit folds them
    if (claim && at == 0) request.venue_key_der = venue_key;
    absl::StatusOr<std::vector<v1::LedgerEntry>> appended =
        federation.AppendAndWait(std::move(request));
    if (!appended.ok()) return appended.status();
    for (size_t k = 0; k < appended->size(); ++k) {
      const v1::LedgerEntry& venue = bundle.entries(at + k).entry();
      if ((*appended)[k].event() != venue.event() || !SameRulings((*appended)[k], venue)) {
        return absl::DataLossError(absl::StrCat("game '", game, "' revision ", at + k + 1,
                                                " was recorded here with other bytes or rulings "
                                                "than the venue's"));
      }
    }
    result.appended += appended->size();
    at = end;
    if (options.appended) options.appended(result.appended);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VenueSyncResult> SyncVenueTournament(v1::AuditBundle bundle, Ledger& federation,
                                                    VenueProofs& proofs,
                                                    const VenueSyncOptions& options) {
  const std::string stream = bundle.game_id();
  if (!IsTournamentStream(stream) || bundle.entries_size() == 0) {
    return absl::InvalidArgumentError("not a venue's bundle of a tournament");
  }
  const std::string id = stream.substr(kTournamentStreamPrefix.size());
  absl::StatusOr<std::optional<VenueGame>> claimed = proofs.Find(stream);
  if (!claimed.ok()) return claimed.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> held =
      federation.log().ReadGame(stream, 0, std::numeric_limits<int64_t>::max());
  if (!held.ok()) return held.status();
  if (held->size() > static_cast<size_t>(bundle.entries_size())) {
    return absl::DataLossError(absl::StrCat("the federation holds ", held->size(),
                                            " event(s) of tournament '", id,
                                            "', the venue's record ", bundle.entries_size()));
  }
  if (!*claimed && !held->empty()) {
    return absl::AlreadyExistsError(absl::StrCat(
        "tournament '", id, "' is the federation's own (recorded there, not synced from a venue)"));
  }
  AuditOptions audit;
  audit.public_key_der = !options.venue_key_der.empty() ? options.venue_key_der
                         : *claimed                     ? (*claimed)->public_key_der
                                                        : bundle.public_key();
  if (*claimed && (*claimed)->public_key_der != audit.public_key_der) {
    return absl::AlreadyExistsError(absl::StrCat("tournament '", id,
                                                 "' was synced from another venue (",
                                                 (*claimed)->venue_id.substr(0, 16), "…)"));
  }
  if (absl::Status s = FillHeldEntries(bundle, *held); !s.ok()) return s;
  // The venue's proof first: nothing is written for a record it does not prove.
  absl::StatusOr<AuditReport> report = AuditBundle(bundle, audit);
  if (!report.ok()) return report.status();
  if (!report->intact) {
    return absl::DataLossError(absl::StrCat("the venue's record of tournament '", id,
                                            "' does not prove itself: ", report->why));
  }
  VenueSyncResult result;
  result.venue_tree_size = bundle.checkpoint().tree_size();
  result.already = held->size();
  if (absl::Status s = AppendTournamentEvents(bundle, id, held->size(), !*claimed,
                                              audit.public_key_der, federation, options, result);
      !s.ok()) {
    return s;
  }
  result.revision = bundle.entries_size();
  if (absl::Status s = proofs.Store(bundle); !s.ok()) return s;
  return result;
}

absl::StatusOr<VenueSyncResult> SyncVenueGame(v1::AuditBundle bundle, Ledger& federation,
                                              VenueProofs& proofs,
                                              const VenueSyncOptions& options) {
  if (absl::Status s = CheckGameSyncRequest(bundle, options); !s.ok()) return s;
  const std::string game = bundle.game_id();
  absl::StatusOr<std::optional<VenueGame>> held = proofs.Find(game);
  if (!held.ok()) return held.status();
  // What the federation holds already: the entries the venue sent without
  // their bytes are filled from it, those it sent with must be its bytes.
  absl::StatusOr<std::vector<v1::LedgerEntry>> held_entries =
      federation.log().ReadGame(game, 0, std::numeric_limits<int64_t>::max());
  if (!held_entries.ok()) return held_entries.status();
  AuditOptions audit;
  audit.judge = options.judge;
  absl::StatusOr<std::string> key = VenueGameKey(bundle, *held, held_entries->size(), options);
  if (!key.ok()) return key.status();
  audit.public_key_der = *std::move(key);
  if (absl::Status s = FillHeldEntries(bundle, *held_entries); !s.ok()) return s;
  absl::StatusOr<AuditReport> report = ProveVenueGame(bundle, audit);
  if (!report.ok()) return report.status();

  absl::StatusOr<v1::Event> created = ParseCanonical<v1::Event>(bundle.entries(0).entry().event());
  if (!created.ok()) return created.status();
  VenueSyncResult result;
  result.venue_tree_size = bundle.checkpoint().tree_size();
  if (created->game_created().live() && !report->game_ended) {
    if (options.partial) {
      return absl::FailedPreconditionError(absl::StrCat(
          "game '", game, "' is a live game: it is synced whole, in one request, once it ended"));
    }
    result.deferred = "a live game in progress (its clock is the venue server's)";
    return result;
  }

  const uint64_t revision = held_entries->size();
  if (absl::Status s =
          CheckPin(bundle, created->game_created(), federation, *options.judge, revision);
      !s.ok()) {
    return s;
  }
  const uint64_t venue_revisions = bundle.entries_size();
  result.already = std::min<uint64_t>(revision, venue_revisions);
  // A game new here is claimed by its first batch, in the same transaction
  // (AppendRequest::venue_key_der): a local creation of the same id meanwhile
  // makes this sync fail, writing nothing, rather than leave a claim on a
  // game that is not the venue's.
  if (absl::Status s = AppendGameEvents(bundle, /*claim=*/!*held, audit.public_key_der, federation,
                                        options, result);
      !s.ok()) {
    return s;
  }
  result.revision = std::max<uint64_t>(revision, venue_revisions);
  if (!options.partial) {
    if (absl::Status s = proofs.Store(bundle); !s.ok()) return s;
  }
  return result;
}

}  // namespace arbiter::ledger
