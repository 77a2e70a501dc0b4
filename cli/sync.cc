// `arbiter sync --from DIR|ADDR --to postgresql://...|DIR|ADDR`: copies a
// venue's games, then its tournaments, into a federation's ledger
// (ledger/venue_sync.h), each with the venue's proof, so that `arbiter
// verify --db postgresql://...` proves every synced game and tournament
// against the venue's own signed checkpoints. Resumable and idempotent:
// rerun it, after a full run or a cut-off one, and each event is there
// exactly once.
//
// The venue is read as audit bundles, one per game or tournament: from its
// data directory (offline; the events its checkpoints cover), or from its
// server over gRPC (ListTournaments, ExportGame BUNDLE of a game or of
// "tournaments/{id}", the server signing its head first; the
// token in $ARBITER_TOKEN needs AUDIT: an AUDITOR or CHIEF_ARBITER). The
// federation is written either directly, as one more of its servers (the
// database URI and the federation's signing key, --state DIR, as
// `arbiter serve --db postgresql://... --state DIR`), or through one of its
// servers (SyncVenueGame, for a tournament's bundle too;
// $ARBITER_FEDERATION_TOKEN, else $ARBITER_TOKEN,
// a VENUE token there): each game's bundle leaves out the events the
// federation holds already and carries at most 1 MiB of new ones, the rest
// in further requests.
//
// Test only: $ARBITER_SYNC_STOP_AFTER=N ends the process abruptly (no
// cleanup, as a crash) once N events have been appended, at most one event
// per append (per request through a server), so that a test can cut a sync
// off midway.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/grpc_status.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "cli/client.h"
#include "cli/client_auth.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/ledger_path.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/signer.h"
#include "ledger/store.h"
#include "ledger/stream.h"
#include "ledger/venue_proofs.h"
#include "ledger/venue_sync.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kSyncFlags[] = {
    {"from", "DIR|ADDR", "the venue: its data directory (or ledger.db), or its server", false,
     true},
    {"to", "URI|DIR|ADDR",
     "the federation's ledger, postgresql://USER@HOST:PORT/DB or a data directory no server "
     "has open, or its server (a VENUE token)",
     false, true},
    {"state", "DIR",
     "with a postgresql:// --to: the federation's signing key ledger.key, as for `serve` (default "
     "$ARBITER_DATA, else ./arbiter-data)"},
    {"venue-pubkey", "FILE",
     "the venue's public key (default ledger.pub beside a venue directory; else the key the "
     "game was first synced under, or on a first sync the venue's own)"},
};
constexpr CommandSpec kSync = {
    .name = "sync",
    .positionals = "",
    .summary = "copy a venue's games and tournaments, with its proofs, into a federation's ledger",
    .min_positionals = 0,
    .max_positionals = 0,
    .flags = kSyncFlags,
    .notes =
        "Each game is the venue's audit bundle: checked (signature, inclusion proofs,\n"
        "rulings re-derived) before anything is written, its events appended byte for\n"
        "byte under the venue's game id, its proof stored beside them. Rerun at will: a\n"
        "game resumes after the last event the federation holds. A game whose last\n"
        "event no venue checkpoint covers yet, and a live game in progress, are left\n"
        "for a later sync. --to a server: the federation's server checks each game the\n"
        "same way under the venue key it was started with (`serve --venue-key`), and\n"
        "needs a VENUE token ($ARBITER_FEDERATION_TOKEN, else $ARBITER_TOKEN). From a\n"
        "server, $ARBITER_TOKEN needs AUDIT (AUDITOR or CHIEF_ARBITER). Exit 1 when a\n"
        "game is not proven by the venue or its id is another venue's (the others still\n"
        "sync). Then each tournament, the same way under the venue's tournament id, its\n"
        "events byte for byte (their game ids are the synced games').\n",
};

// A venue's games, each as its audit bundle.
class Venue {
 public:
  virtual ~Venue() = default;
  virtual absl::StatusOr<std::vector<std::string>> Games() = 0;
  // The streams of its tournaments ("tournaments/{id}"); UNIMPLEMENTED when
  // this venue cannot give them (a server from before ListTournaments).
  virtual absl::StatusOr<std::vector<std::string>> Tournaments() = 0;
  // FAILED_PRECONDITION when no checkpoint covers the stream's last event.
  virtual absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) = 0;
};

// A venue's data directory, read offline.
class DirectoryVenue final : public Venue {
 public:
  explicit DirectoryVenue(std::unique_ptr<ledger::LogSource> reader)
      : reader_(std::move(reader)), exporter_(*reader_) {}
  absl::StatusOr<std::vector<std::string>> Games() override {
    std::vector<std::string> games;
    for (uint64_t after = 0;;) {
      absl::StatusOr<std::vector<ledger::GameListing>> page = reader_->ListGames(after, 1000);
      if (!page.ok()) return page.status();
      if (page->empty()) return games;
      for (const ledger::GameListing& g : *page) games.push_back(g.game_id);
      after = page->back().first_position;
    }
  }
  absl::StatusOr<std::vector<std::string>> Tournaments() override {
    absl::StatusOr<std::vector<std::string>> ids = reader_->ListTournaments();
    if (!ids.ok()) return ids.status();
    std::vector<std::string> streams;
    for (const std::string& id : *ids) {
      streams.push_back(absl::StrCat(ledger::kTournamentStreamPrefix, id));
    }
    return streams;
  }
  absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) override {
    return exporter_.Export(game);  // the log hashed once for all games
  }

 private:
  std::unique_ptr<ledger::LogSource> reader_;
  ledger::BundleExporter exporter_;
};

// A venue's server: its games from the log (WatchAll up to where it has
// caught up), its tournaments from ListTournaments, each bundle from
// ExportGame.
class ServerVenue final : public Venue {
 public:
  explicit ServerVenue(const std::string& server)
      : channel_(OpenChannel(server)),
        stub_(v1::Arbiter::NewStub(channel_)),
        tournaments_(v1::TournamentService::NewStub(channel_)) {}
  absl::StatusOr<std::vector<std::string>> Games() override {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader =
        stub_->WatchAll(&context, v1::WatchAllRequest());
    std::vector<std::string> games;
    v1::WatchResponse msg;
    while (reader->Read(&msg)) {
      if (msg.has_caught_up()) {
        context.TryCancel();
        break;
      }
      if (msg.event().event().has_game_created()) {
        games.push_back(msg.event().event().game_created().game_id());
      }
    }
    grpc::Status status = reader->Finish();
    if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
      return service::FromGrpc(status);
    }
    return games;
  }
  absl::StatusOr<std::vector<std::string>> Tournaments() override {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListTournamentsResponse resp;
    grpc::Status s = tournaments_->ListTournaments(&context, v1::ListTournamentsRequest(), &resp);
    if (!s.ok()) return service::FromGrpc(s);
    return std::vector<std::string>(resp.names().begin(), resp.names().end());
  }
  // A game's bundle, or a tournament's (its stream's name, "tournaments/{id}").
  absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) override {
    v1::ExportGameRequest req;
    req.set_name(ledger::IsTournamentStream(game) ? game : GameResource(game));
    req.set_format(v1::ExportGameRequest::BUNDLE);
    // The bundle comes in pages of at most 1 MiB (client.h CallPages).
    std::string content;
    const grpc::Status s =
        CallPages<v1::Arbiter::Stub, v1::ExportGameRequest, v1::ExportGameResponse>(
            *stub_, &v1::Arbiter::Stub::ExportGame, req, [&] { content.clear(); },
            [&](v1::ExportGameResponse& page) { content += page.content(); });
    if (!s.ok()) return service::FromGrpc(s);
    v1::AuditBundle bundle;
    if (!bundle.ParseFromString(content)) {
      return absl::DataLossError(absl::StrCat("the venue's bundle of '", game, "' does not parse"));
    }
    return bundle;
  }

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
};

// Where a venue's games go: the federation's database, or one of its servers.
class Federation {
 public:
  virtual ~Federation() = default;
  // As ledger::SyncVenueGame.
  virtual absl::StatusOr<ledger::VenueSyncResult> Sync(const v1::AuditBundle& bundle) = 0;
  // As ledger::SyncVenueTournament; UNIMPLEMENTED where not carried.
  virtual absl::StatusOr<ledger::VenueSyncResult> SyncTournament(const v1::AuditBundle& bundle) = 0;
  // After the last game: signs the head if the games added to it.
  virtual absl::Status Finish(uint64_t appended) = 0;
};

// The federation's ledger (PostgreSQL, or a data directory no server has
// open), written as one more of its servers.
class DatabaseFederation final : public Federation {
 public:
  DatabaseFederation(std::unique_ptr<ledger::Ledger> ledger,
                     std::unique_ptr<ledger::VenueProofs> proofs, ledger::VenueSyncOptions options)
      : ledger_(std::move(ledger)), proofs_(std::move(proofs)), options_(std::move(options)) {}
  absl::StatusOr<ledger::VenueSyncResult> Sync(const v1::AuditBundle& bundle) override {
    return ledger::SyncVenueGame(bundle, *ledger_, *proofs_, options_);
  }
  absl::StatusOr<ledger::VenueSyncResult> SyncTournament(const v1::AuditBundle& bundle) override {
    return ledger::SyncVenueTournament(bundle, *ledger_, *proofs_, options_);
  }
  absl::Status Finish(uint64_t appended) override {
    if (appended == 0) return absl::OkStatus();
    return ledger_->Checkpoint().status();
  }

 private:
  std::unique_ptr<ledger::Ledger> ledger_;
  std::unique_ptr<ledger::VenueProofs> proofs_;
  ledger::VenueSyncOptions options_;
};

// The federation's server (SyncVenueGame): each game in requests that
// leave out the events the federation holds and carry at most
// kMaxBatchBytes of new ones (and at most `max_events` events, if not 0),
// the last with the whole game's proof.
class ServerFederation final : public Federation {
 public:
  ServerFederation(const std::string& server, uint64_t max_events,
                   std::function<void(uint64_t)> appended)
      : channel_(OpenAuthChannel(server, TokenVariable())),
        stub_(v1::Arbiter::NewStub(channel_)),
        tournaments_(v1::TournamentService::NewStub(channel_)),
        max_events_(max_events),
        appended_(std::move(appended)) {}

  absl::StatusOr<ledger::VenueSyncResult> Sync(const v1::AuditBundle& bundle) override {
    absl::StatusOr<uint64_t> held = Revision(bundle.game_id());
    if (!held.ok()) return held.status();
    ledger::VenueSyncResult result;
    const uint64_t total = bundle.entries_size();
    bool first = true;
    while (first || *held < total) {
      first = false;
      v1::SyncVenueGameRequest req;
      *req.mutable_bundle() = bundle;
      google::protobuf::RepeatedPtrField<v1::ProvenEntry>& entries =
          *req.mutable_bundle()->mutable_entries();
      uint64_t end = std::min<uint64_t>(*held, total);
      for (uint64_t i = 0; i < end; ++i) {
        entries[i].mutable_entry()->clear_event();
        entries[i].mutable_entry()->clear_rulings();
      }
      size_t bytes = 0;
      for (; end < total; ++end) {
        const v1::LedgerEntry& e = entries[end].entry();
        size_t size = e.event().size();
        for (const v1::Ruling& r : e.rulings()) size += r.ByteSizeLong();
        if (end > *held && (bytes + size > service::kMaxBatchBytes ||
                            (max_events_ > 0 && end - *held >= max_events_))) {
          break;
        }
        bytes += size;
      }
      entries.DeleteSubrange(end, total - end);
      req.set_partial(end < total);
      if (req.ByteSizeLong() > service::kMaxFileBytes - 64 * 1024) {
        return absl::ResourceExhaustedError(
            absl::StrCat("game '", bundle.game_id(), "': its proofs alone outgrow one request (",
                         req.ByteSizeLong(), " bytes)"));
      }
      grpc::ClientContext context;
      SetDeadline(&context, absl::Minutes(5));
      v1::SyncVenueGameResponse resp;
      if (grpc::Status s = stub_->SyncVenueGame(&context, req, &resp); !s.ok()) {
        return service::FromGrpc(s);
      }
      if (!resp.deferred().empty()) {
        result.deferred = resp.deferred();
        return result;
      }
      if (result.appended + result.already == 0) result.already = resp.already();
      result.appended += resp.appended();
      result.venue_tree_size = resp.venue_tree_size();
      if (resp.revision() <= *held && end < total) {
        return absl::InternalError(
            absl::StrCat("game '", bundle.game_id(), "': the federation's server added nothing"));
      }
      *held = resp.revision();
      if (resp.appended() > 0 && appended_) appended_(result.appended);
    }
    result.revision = *held;
    return result;
  }
  // A tournament in one request (SyncVenueGame with its stream's bundle),
  // the events the federation holds left out: its stream is small beside a
  // game's, and its proof is stored with it whole.
  absl::StatusOr<ledger::VenueSyncResult> SyncTournament(const v1::AuditBundle& bundle) override {
    absl::StatusOr<uint64_t> held = TournamentRevision(bundle.game_id());
    if (!held.ok()) return held.status();
    v1::SyncVenueGameRequest req;
    *req.mutable_bundle() = bundle;
    const int end = static_cast<int>(std::min<uint64_t>(*held, bundle.entries_size()));
    for (int i = 0; i < end; ++i) {
      req.mutable_bundle()->mutable_entries(i)->mutable_entry()->clear_event();
    }
    if (req.ByteSizeLong() > service::kMaxFileBytes - 64 * 1024) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "tournament '", bundle.game_id().substr(ledger::kTournamentStreamPrefix.size()),
          "': its new events and proofs outgrow one request (", req.ByteSizeLong(), " bytes)"));
    }
    grpc::ClientContext context;
    SetDeadline(&context, absl::Minutes(5));
    v1::SyncVenueGameResponse resp;
    if (grpc::Status s = stub_->SyncVenueGame(&context, req, &resp); !s.ok()) {
      return service::FromGrpc(s);
    }
    ledger::VenueSyncResult result;
    result.appended = resp.appended();
    result.already = resp.already();
    result.venue_tree_size = resp.venue_tree_size();
    result.revision = resp.revision();
    return result;
  }
  absl::Status Finish(uint64_t) override { return absl::OkStatus(); }  // the server signs

 private:
  // $ARBITER_FEDERATION_TOKEN when set, else $ARBITER_TOKEN.
  static const char* TokenVariable() {
    const char* own = std::getenv("ARBITER_FEDERATION_TOKEN");
    return own != nullptr && *own != '\0' ? "ARBITER_FEDERATION_TOKEN" : "ARBITER_TOKEN";
  }
  // The federation's revision of `game`; 0 when it holds none of it.
  absl::StatusOr<uint64_t> Revision(const std::string& game) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetGameRequest req;
    req.set_name(GameResource(game));
    v1::Game resp;
    grpc::Status s = stub_->GetGame(&context, req, &resp);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) return 0;
    if (!s.ok()) return service::FromGrpc(s);
    return resp.revision();
  }

  // The federation's revision of a tournament's `stream`; 0 when it holds
  // none of it.
  absl::StatusOr<uint64_t> TournamentRevision(const std::string& stream) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetTournamentRequest req;
    req.set_name(stream);
    v1::Tournament resp;
    grpc::Status s = tournaments_->GetTournament(&context, req, &resp);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) return 0;
    if (!s.ok()) return service::FromGrpc(s);
    return resp.revision();
  }

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  uint64_t max_events_;
  std::function<void(uint64_t)> appended_;
};

// $ARBITER_SYNC_STOP_AFTER, or 0.
uint64_t StopAfter() {
  const char* env = std::getenv("ARBITER_SYNC_STOP_AFTER");
  uint64_t n = 0;
  if (env == nullptr || !absl::SimpleAtoi(env, &n)) return 0;
  return n;
}

int Failed(const absl::Status& s) {
  return Complain("sync", absl::StrCat(absl::StatusCodeToString(s.code()), ": ", s.message()),
                  ExitCodeOf(s));
}

// A record the venue or the federation refuses (it does not prove itself,
// or it is another's): printed, the sync's exit made negative, and the sync
// goes on. False for any other status, which the caller handles.
bool ReportRefused(const char* kind, const std::string& id, const absl::Status& s, int& exit) {
  if (!absl::IsDataLoss(s) && !absl::IsAlreadyExists(s) && !absl::IsFailedPrecondition(s)) {
    return false;
  }
  std::printf("%s '%s': NOT synced: %s\n", kind, id.c_str(), std::string(s.message()).c_str());
  exit = kExitNegative;
  return true;
}

// What a part of a sync (its games, its tournaments) did.
struct SyncTally {
  uint64_t appended = 0, already = 0, synced = 0, waiting = 0;
  int exit = kExitOk;  // kExitNegative once a record is refused
};

// A record synced: its line printed, its counts added to `tally`.
void ReportSynced(const char* kind, const std::string& id, const ledger::VenueSyncResult& r,
                  SyncTally& tally) {
  std::printf("%s '%s': %llu new event(s), %llu already here; venue checkpoint at size %llu\n",
              kind, id.c_str(), static_cast<unsigned long long>(r.appended),
              static_cast<unsigned long long>(r.already),
              static_cast<unsigned long long>(r.venue_tree_size));
  tally.appended += r.appended;
  tally.already += r.already;
  ++tally.synced;
}

// One venue tournament into the federation, its line printed; an error
// only when the sync cannot go on.
absl::Status SyncOneTournament(Venue& venue, Federation& federation, const std::string& stream,
                               SyncTally& tally) {
  const std::string id = stream.substr(ledger::kTournamentStreamPrefix.size());
  absl::StatusOr<v1::AuditBundle> bundle = venue.Bundle(stream);
  if (absl::IsFailedPrecondition(bundle.status())) {
    std::printf("tournament '%s': not yet covered by a venue checkpoint; left for a later sync\n",
                id.c_str());
    ++tally.waiting;
    return absl::OkStatus();
  }
  absl::StatusOr<ledger::VenueSyncResult> r =
      bundle.ok() ? federation.SyncTournament(*bundle)
                  : absl::StatusOr<ledger::VenueSyncResult>(bundle.status());
  if (ReportRefused("tournament", id, r.status(), tally.exit)) return absl::OkStatus();
  if (!r.ok()) return r.status();
  ReportSynced("tournament", id, *r, tally);
  return absl::OkStatus();
}

// The venue's tournaments, after its games (their events name the games).
absl::StatusOr<SyncTally> SyncTournaments(Venue& venue, Federation& federation) {
  SyncTally tally;
  absl::StatusOr<std::vector<std::string>> streams = venue.Tournaments();
  if (absl::IsUnimplemented(streams.status())) {
    std::printf("tournaments: not carried: %s\n", std::string(streams.status().message()).c_str());
    return tally;
  }
  if (!streams.ok()) return streams.status();
  for (const std::string& stream : *streams) {
    absl::Status s = SyncOneTournament(venue, federation, stream, tally);
    if (absl::IsUnimplemented(s)) {
      std::printf("tournaments: not carried: %s\n", std::string(s.message()).c_str());
      return tally;
    }
    if (!s.ok()) return s;
  }
  if (!streams->empty()) {
    std::printf("synced %llu tournament(s): %llu new event(s), %llu already here",
                static_cast<unsigned long long>(tally.synced),
                static_cast<unsigned long long>(tally.appended),
                static_cast<unsigned long long>(tally.already));
    if (tally.waiting > 0) {
      std::printf("; %llu left for a later sync", static_cast<unsigned long long>(tally.waiting));
    }
    std::printf("\n");
  }
  return tally;
}

// Where --from points: a data directory or database read directly (its
// ledger.pub beside it is the key to check when --venue-pubkey is not
// given), else a venue's server.
absl::StatusOr<std::unique_ptr<Venue>> OpenVenue(const std::string& from, std::string* pubkey) {
  std::error_code error;
  if (!std::filesystem::exists(from, error)) return std::make_unique<ServerVenue>(from);
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(from);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = (*store)->OpenReader();
  if (!reader.ok()) return reader.status();
  const std::filesystem::path beside =
      std::filesystem::path((*store)->database()).parent_path() / "ledger.pub";
  if (pubkey->empty() && std::filesystem::exists(beside, error)) *pubkey = beside.string();
  return std::make_unique<DirectoryVenue>(*std::move(reader));
}

// $ARBITER_SYNC_STOP_AFTER: called with the events appended so far, ends the
// process abruptly once there are that many (a crash in the middle of a
// sync, for the tests); empty when the variable is not set.
std::function<void(uint64_t)> AbruptStop(uint64_t stop_after) {
  if (stop_after == 0) return nullptr;
  return [stop_after](uint64_t total) {
    if (total < stop_after) return;
    std::fprintf(stderr,
                 "arbiter sync: stopping abruptly after %llu event(s) "
                 "($ARBITER_SYNC_STOP_AFTER)\n",
                 static_cast<unsigned long long>(total));
    std::fflush(stdout);
    _exit(kExitUnavailable);
  };
}

// Where --to points, and how the federation is written.
struct FederationTarget {
  std::string to;
  bool direct = false;  // a database or data directory, written as one more server
  bool shared = false;  // a PostgreSQL database, whose key is in state
  std::string state;
  // With $ARBITER_SYNC_STOP_AFTER: events are appended one at a time and
  // each reported, counted on from the games synced before.
  std::function<void(uint64_t)> appended;
};

// The federation: its database, written as one more of its servers, or
// one of its servers, which checks each game itself.
absl::StatusOr<std::unique_ptr<Federation>> OpenFederation(const FederationTarget& target,
                                                           AdjudicatorJudge& judge,
                                                           ledger::VenueSyncOptions options) {
  if (!target.direct) {
    // The server decides which venue key a game is checked under.
    return std::make_unique<ServerFederation>(target.to, target.appended ? 1 : 0, target.appended);
  }
  ledger::LedgerOptions lo;
  lo.dir = target.to;
  if (target.shared) lo.key_dir = target.state;
  lo.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(lo);
  if (!ledger.ok()) return ledger.status();
  absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> proofs =
      ledger::VenueProofs::Open(target.to);
  if (!proofs.ok()) return proofs.status();
  options.judge = &judge;
  if (target.appended) {
    options.batch = 1;
    options.appended = target.appended;
  }
  return std::make_unique<DatabaseFederation>(*std::move(ledger), *std::move(proofs),
                                              std::move(options));
}

// One game: a game the venue cannot prove yet waits, one it or the
// federation refuses is reported and the sync goes on; any other error
// ends it. server_key, when not empty, is the key a server federation's
// bundles must be signed with (a database federation checks it itself).
absl::Status SyncOneGame(Venue& venue, Federation& federation, const std::string& game,
                         const std::string& server_key, SyncTally& tally) {
  absl::StatusOr<v1::AuditBundle> bundle = venue.Bundle(game);
  if (absl::IsFailedPrecondition(bundle.status())) {
    std::printf("game '%s': not yet covered by a venue checkpoint; left for a later sync\n",
                game.c_str());
    ++tally.waiting;
    return absl::OkStatus();
  }
  if (absl::IsDataLoss(bundle.status())) {  // the venue's log does not match its checkpoint
    std::printf("game '%s': NOT synced: %s\n", game.c_str(),
                std::string(bundle.status().message()).c_str());
    tally.exit = kExitNegative;
    return absl::OkStatus();
  }
  if (!bundle.ok()) return bundle.status();
  if (!server_key.empty() && bundle->public_key() != server_key) {
    std::printf(
        "game '%s': NOT synced: the venue's bundle is signed with another key than "
        "--venue-pubkey\n",
        game.c_str());
    tally.exit = kExitNegative;
    return absl::OkStatus();
  }
  absl::StatusOr<ledger::VenueSyncResult> r = federation.Sync(*bundle);
  if (ReportRefused("game", game, r.status(), tally.exit)) return absl::OkStatus();
  if (!r.ok()) return r.status();
  if (!r->deferred.empty()) {
    std::printf("game '%s': left for a later sync: %s\n", game.c_str(), r->deferred.c_str());
    ++tally.waiting;
    return absl::OkStatus();
  }
  ReportSynced("game", game, *r, tally);
  return absl::OkStatus();
}

// The venue's games, then its tournaments, then the federation's head
// signed; prints the totals and returns the exit code.
int SyncVenue(Venue& venue, Federation& federation, const std::string& server_key,
              SyncTally& tally) {
  absl::StatusOr<std::vector<std::string>> games = venue.Games();
  if (!games.ok()) return Failed(games.status());
  for (const std::string& game : *games) {
    if (absl::Status s = SyncOneGame(venue, federation, game, server_key, tally); !s.ok()) {
      return Failed(s);
    }
  }
  absl::StatusOr<SyncTally> tournaments = SyncTournaments(venue, federation);
  if (!tournaments.ok()) return Failed(tournaments.status());
  if (tournaments->exit != kExitOk) tally.exit = tournaments->exit;
  if (absl::Status s = federation.Finish(tally.appended + tournaments->appended); !s.ok()) {
    return Failed(s);
  }
  std::printf("synced %llu game(s): %llu new event(s), %llu already here",
              static_cast<unsigned long long>(tally.synced),
              static_cast<unsigned long long>(tally.appended),
              static_cast<unsigned long long>(tally.already));
  if (tally.waiting > 0) {
    std::printf("; %llu game(s) left for a later sync",
                static_cast<unsigned long long>(tally.waiting));
  }
  std::printf("\n");
  return tally.exit;
}

}  // namespace

int RunSync(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kSync, argc, argv, &args)) return *exit;
  const std::string from = *args.Value("from");
  FederationTarget target;
  target.to = *args.Value("to");
  // A database, or a data directory (its own key in it): written directly.
  std::error_code exists_error;
  target.shared = ledger::IsSharedStore(target.to);
  target.direct = target.shared || std::filesystem::exists(target.to, exists_error);
  if (!target.shared && args.Has("state")) {
    return UsageError(kSync,
                      "--state is for a postgresql:// --to (a server or a data directory has its "
                      "own key)");
  }
  const char* env = std::getenv("ARBITER_DATA");
  target.state = args.ValueOr("state", env != nullptr && *env != '\0' ? env : "arbiter-data");

  // The venue, and the key it must have signed with.
  std::string pubkey = args.ValueOr("venue-pubkey", "");
  absl::StatusOr<std::unique_ptr<Venue>> venue = OpenVenue(from, &pubkey);
  if (!venue.ok()) return Failed(venue.status());
  ledger::VenueSyncOptions options;
  if (!pubkey.empty()) {
    absl::StatusOr<std::string> der = ledger::ReadPublicKeyFile(pubkey);
    if (!der.ok()) {
      return Complain("sync", absl::StrCat("--venue-pubkey ", pubkey, ": ", der.status().message()),
                      kExitBadInput);
    }
    options.venue_key_der = *der;
  }
  SyncTally tally;
  if (std::function<void(uint64_t)> stop = AbruptStop(StopAfter())) {
    // The events of the games synced before the current one count too.
    target.appended = [&tally, stop](uint64_t n) { stop(tally.appended + n); };
  }
  AdjudicatorJudge judge;
  const std::string server_key = target.direct ? "" : options.venue_key_der;
  absl::StatusOr<std::unique_ptr<Federation>> federation =
      OpenFederation(target, judge, std::move(options));
  if (!federation.ok()) return Failed(federation.status());
  return SyncVenue(**venue, **federation, server_key, tally);
}

}  // namespace arbiter::cli
