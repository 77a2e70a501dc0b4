// `arbiter sync --from DIR|ADDR --to postgresql://...`: copies a venue's
// games into a federation's ledger (ledger/venue_sync.h), each with the
// venue's proof, so that `arbiter verify --db postgresql://...` proves
// every synced game against the venue's own signed checkpoints. Resumable
// and idempotent: rerun it, after a full run or a cut-off one, and each
// event is there exactly once.
//
// The venue is read as audit bundles, one per game: from its data
// directory (offline; the events its checkpoints cover), or from its server
// over gRPC (ExportGame BUNDLE, the server signing its head first; the
// token in $ARBITER_TOKEN needs AUDIT: an AUDITOR or CHIEF_ARBITER). The
// federation is written directly, as one more of its servers: the
// database URI and the federation's signing key (--state DIR, as
// `arbiter serve --db postgresql://... --state DIR`).
//
// Test only: $ARBITER_SYNC_STOP_AFTER=N ends the process abruptly (no
// cleanup, as a crash) once N events have been appended, one event per
// append, so that a test can cut a sync off midway.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/adjudicator_judge.h"
#include "adjudicator/service/grpc_status.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/ledger_path.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/signer.h"
#include "ledger/venue_proofs.h"
#include "ledger/venue_sync.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kFlags[] = {
    {"from", "DIR|ADDR", "the venue: its data directory (or ledger.db), or its server", false,
     true},
    {"to", "URI", "the federation's ledger: postgresql://USER@HOST:PORT/DB", false, true},
    {"state", "DIR",
     "the federation's signing key ledger.key, as for `serve` (default $ARBITER_DATA, else "
     "./arbiter-data)"},
    {"venue-pubkey", "FILE",
     "the venue's public key (default ledger.pub beside a venue directory; else the key the "
     "game was first synced under, or on a first sync the venue's own)"},
};
constexpr CommandSpec kSync = {
    .name = "sync",
    .positionals = "",
    .summary = "copy a venue's games, with its proofs, into a federation's PostgreSQL ledger",
    .min_positionals = 0,
    .max_positionals = 0,
    .flags = kFlags,
    .notes =
        "Each game is the venue's audit bundle: checked (signature, inclusion proofs,\n"
        "rulings re-derived) before anything is written, its events appended byte for\n"
        "byte under the venue's game id, its proof stored beside them. Rerun at will: a\n"
        "game resumes after the last event the federation holds. A game whose last\n"
        "event no venue checkpoint covers yet, and a live game in progress, are left\n"
        "for a later sync. --to is a PostgreSQL ledger only (not a server yet). From a\n"
        "server, $ARBITER_TOKEN needs AUDIT (AUDITOR or CHIEF_ARBITER). Exit 1 when a\n"
        "game is not proven by the venue or its id is another venue's (the others still\n"
        "sync).\n",
};

// A venue's games, each as its audit bundle.
class Venue {
 public:
  virtual ~Venue() = default;
  virtual absl::StatusOr<std::vector<std::string>> Games() = 0;
  // FAILED_PRECONDITION when no checkpoint covers the game's last event.
  virtual absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) = 0;
};

// A venue's data directory, read offline.
class DirectoryVenue final : public Venue {
 public:
  explicit DirectoryVenue(std::unique_ptr<ledger::LogSource> reader) : reader_(std::move(reader)) {}
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
  absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) override {
    return ledger::ExportBundle(*reader_, game);
  }

 private:
  std::unique_ptr<ledger::LogSource> reader_;
};

// A venue's server: its games from the log (WatchAll up to where it has
// caught up), each bundle from ExportGame.
class ServerVenue final : public Venue {
 public:
  explicit ServerVenue(const std::string& server) : stub_(Connect(server)) {}
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
  absl::StatusOr<v1::AuditBundle> Bundle(const std::string& game) override {
    grpc::ClientContext context;
    SetDeadline(&context, absl::Minutes(5));
    v1::ExportGameRequest req;
    req.set_name(GameResource(game));
    req.set_format(v1::ExportGameRequest::BUNDLE);
    v1::ExportGameResponse resp;
    if (grpc::Status s = stub_->ExportGame(&context, req, &resp); !s.ok()) {
      return service::FromGrpc(s);
    }
    v1::AuditBundle bundle;
    if (!bundle.ParseFromString(resp.content())) {
      return absl::DataLossError(absl::StrCat("the venue's bundle of '", game, "' does not parse"));
    }
    return bundle;
  }

 private:
  std::unique_ptr<v1::Arbiter::Stub> stub_;
};

// $ARBITER_SYNC_STOP_AFTER, or 0.
uint64_t StopAfter() {
  const char* env = std::getenv("ARBITER_SYNC_STOP_AFTER");
  uint64_t n = 0;
  if (env == nullptr || !absl::SimpleAtoi(env, &n)) return 0;
  return n;
}

int Failed(const absl::Status& s) {
  std::fprintf(stderr, "arbiter sync: %s\n", std::string(s.message()).c_str());
  return ExitCodeOf(s);
}

}  // namespace

int RunSync(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kSync, argc, argv, &args)) return *exit;
  const std::string from = *args.Value("from");
  const std::string to = *args.Value("to");
  if (!ledger::IsPostgresUri(to)) {
    return UsageError(kSync, "--to: a federation's PostgreSQL ledger, postgresql://...");
  }
  const char* env = std::getenv("ARBITER_DATA");
  const std::string state =
      args.ValueOr("state", env != nullptr && *env != '\0' ? env : "arbiter-data");

  // The venue, and the key it must have signed with.
  std::unique_ptr<Venue> venue;
  std::string pubkey = args.ValueOr("venue-pubkey", "");
  std::error_code error;
  if (std::filesystem::exists(from, error)) {
    const std::string db = LedgerDatabase(from);
    absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = OpenLedgerReader(db);
    if (!reader.ok()) return Failed(reader.status());
    venue = std::make_unique<DirectoryVenue>(*std::move(reader));
    const std::filesystem::path beside = std::filesystem::path(db).parent_path() / "ledger.pub";
    if (pubkey.empty() && std::filesystem::exists(beside, error)) pubkey = beside.string();
  } else {
    venue = std::make_unique<ServerVenue>(from);
  }
  ledger::VenueSyncOptions options;
  if (!pubkey.empty()) {
    absl::StatusOr<std::string> der = ledger::ReadPublicKeyFile(pubkey);
    if (!der.ok()) {
      std::fprintf(stderr, "arbiter sync: %s\n", std::string(der.status().message()).c_str());
      return kExitBadInput;
    }
    options.venue_key_der = *der;
  }

  // The federation, written as one more of its servers.
  service::AdjudicatorJudge judge;
  ledger::LedgerOptions lo;
  lo.dir = to;
  lo.key_dir = state;
  lo.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> federation = ledger::Ledger::Open(lo);
  if (!federation.ok()) return Failed(federation.status());
  absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> proofs = ledger::VenueProofs::Open(to);
  if (!proofs.ok()) return Failed(proofs.status());

  options.judge = &judge;
  uint64_t total = 0;
  const uint64_t stop_after = StopAfter();
  if (stop_after > 0) {
    options.batch = 1;
    options.appended = [&total, stop_after](uint64_t) {
      if (++total < stop_after) return;
      std::fprintf(stderr,
                   "arbiter sync: stopping abruptly after %llu event(s) "
                   "($ARBITER_SYNC_STOP_AFTER)\n",
                   static_cast<unsigned long long>(total));
      std::fflush(stdout);
      _exit(kExitUnavailable);
    };
  }

  absl::StatusOr<std::vector<std::string>> games = venue->Games();
  if (!games.ok()) return Failed(games.status());
  uint64_t appended = 0, already = 0, synced = 0, waiting = 0;
  int exit = kExitOk;
  for (const std::string& game : *games) {
    absl::StatusOr<v1::AuditBundle> bundle = venue->Bundle(game);
    if (absl::IsFailedPrecondition(bundle.status())) {
      std::printf("game '%s': not yet covered by a venue checkpoint; left for a later sync\n",
                  game.c_str());
      ++waiting;
      continue;
    }
    if (absl::IsDataLoss(bundle.status())) {  // the venue's log does not match its checkpoint
      std::printf("game '%s': NOT synced: %s\n", game.c_str(),
                  std::string(bundle.status().message()).c_str());
      exit = kExitNegative;
      continue;
    }
    if (!bundle.ok()) return Failed(bundle.status());
    absl::StatusOr<ledger::VenueSyncResult> r =
        ledger::SyncVenueGame(*bundle, **federation, **proofs, options);
    if (absl::IsDataLoss(r.status()) || absl::IsAlreadyExists(r.status()) ||
        absl::IsFailedPrecondition(r.status())) {
      std::printf("game '%s': NOT synced: %s\n", game.c_str(),
                  std::string(r.status().message()).c_str());
      exit = kExitNegative;
      continue;
    }
    if (!r.ok()) return Failed(r.status());
    if (!r->deferred.empty()) {
      std::printf("game '%s': left for a later sync: %s\n", game.c_str(), r->deferred.c_str());
      ++waiting;
      continue;
    }
    std::printf("game '%s': %llu new event(s), %llu already here; venue checkpoint at size %llu\n",
                game.c_str(), static_cast<unsigned long long>(r->appended),
                static_cast<unsigned long long>(r->already),
                static_cast<unsigned long long>(r->venue_tree_size));
    appended += r->appended;
    already += r->already;
    ++synced;
  }
  if (appended > 0) {
    absl::StatusOr<v1::Checkpoint> cp = (*federation)->Checkpoint();
    if (!cp.ok()) return Failed(cp.status());
  }
  std::printf("synced %llu game(s): %llu new event(s), %llu already here",
              static_cast<unsigned long long>(synced), static_cast<unsigned long long>(appended),
              static_cast<unsigned long long>(already));
  if (waiting > 0) {
    std::printf("; %llu game(s) left for a later sync", static_cast<unsigned long long>(waiting));
  }
  std::printf("\n");
  return exit;
}

}  // namespace arbiter::cli
