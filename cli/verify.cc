// `arbiter verify`: the audit of a ledger database or of one game's audit
// bundle, offline (see ledger/audit.h for what is checked), or of a game
// through a server (cli/client_remote.cc).
//
// The trusted key is --pubkey, else ledger.pub beside the database; without
// either, the key the database or bundle carries (which proves integrity
// only relative to that key; the summary says so). Exit 0 when intact, 1 with
// the first bad position and why; a database that cannot be read is 3.
//
// On a federation's ledger, each game synced from a venue (`arbiter
// sync`) is also proven against the venue's own signed checkpoints and
// key, stored with it (ledger/venue_audit.h).
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/tournament_referee.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/ledger_path.h"
#include "cli/receipt.h"
#include "cli/verify_export.h"
#include "ledger/audit.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/store.h"
#include "ledger/stream.h"
#include "ledger/venue_audit.h"
#include "ledger/venue_proofs.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kVerifyFlags[] = {
    {"db", "PATH", "offline: the ledger (the data directory of `arbiter serve`, or its ledger.db)"},
    {"bundle", "FILE", "offline: an audit bundle (`arbiter export`), checked with no database"},
    {"pubkey", "FILE",
     "offline: the trusted public key, PEM, DER or the C2SP verifier key ledger.vkey (then each "
     "checkpoint note must name its origin) (default ledger.pub beside the database)"},
    {"no-readjudicate", "", "offline: check hashes, proofs and signatures only, not the rulings"},
    {"strict", "", "offline: fail (exit 1) when any event lies after the last signed checkpoint"},
    {"receipt", "FILE", "offline: a ruling's receipt (C2SP tlog-proof, `export --receipt`)"},
    {"key", "VKEY|FILE", "with --receipt: the log's verifier key (its ledger.vkey)"},
    {"witnesses", "K", "offline: require K valid cosignatures by the witnesses given"},
    {"witness", "VKEY", "with --witnesses: a trusted witness's verifier key", true},
    {"export", "FILE",
     "a tournament's exported file (.h9, AGA, OpenGotha, CSV, JSON): is it what the log gives "
     "at the checkpoint it names? (with --db or --server; a CSV --for-spreadsheet and an "
     ".h9/AGA file's --title are read from the file)"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kVerify = {
    .name = "verify",
    .positionals = "[GAME]",
    .summary = "audit a game through a server, or offline a ledger database or an audit bundle",
    .min_positionals = 0,
    .max_positionals = 1,
    .flags = kVerifyFlags,
    .notes =
        "  arbiter verify GAME [--server ADDR] [--json]       (the server audits its ledger)\n"
        "  arbiter verify --db PATH|postgresql://... [--pubkey FILE] [--no-readjudicate] "
        "[--strict]\n"
        "                [GAME]\n"
        "  arbiter verify --bundle FILE [--pubkey FILE] [--no-readjudicate]\n"
        "  arbiter verify --receipt FILE --key VKEY [--witnesses K --witness VKEY...]\n"
        "  arbiter verify --export FILE --db PATH|postgresql://... [--pubkey FILE]\n"
        "  arbiter verify --export FILE [--server ADDR]\n"
        "--witnesses K with --db: the latest checkpoint K of the witnesses cosigned.\n"
        "Exit 1 when not intact, with the first bad position and why. --db prints how\n"
        "many events lie after the last signed checkpoint: no signature covers them\n"
        "yet (a server signs within --sign-within, default 1s, of any write); with\n"
        "--strict any such event fails the audit. Each game synced from a venue\n"
        "(`arbiter sync`) is also proven against the venue's own signed checkpoints\n"
        "and key; exit 1 if one is not.\n",
};

// A one-line bar, redrawn in place, only when stderr is a terminal.
void DrawProgress(uint64_t done, uint64_t total) {
  constexpr int kWidth = 40;
  int filled = total == 0 ? kWidth : static_cast<int>(kWidth * done / total);
  std::fprintf(stderr, "\rverifying [%.*s%*s] %llu/%llu", filled,
               "########################################", kWidth - filled, "",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
  if (done >= total) std::fprintf(stderr, "\n");
}

int Report(const ledger::AuditReport& r, const std::string& what, const std::string& key_source,
           bool strict = false) {
  if (!r.intact) {
    if (r.first_bad_position > 0) {
      std::printf("%s is NOT intact: first bad position %llu: %s\n", what.c_str(),
                  static_cast<unsigned long long>(r.first_bad_position), r.why.c_str());
    } else {
      std::printf("%s is NOT intact: %s\n", what.c_str(), r.why.c_str());
    }
    return kExitNegative;
  }
  std::printf("%s intact: %llu events in %llu game(s), %llu ruling(s), %llu checkpoint(s)\n",
              what.c_str(), static_cast<unsigned long long>(r.events),
              static_cast<unsigned long long>(r.games), static_cast<unsigned long long>(r.rulings),
              static_cast<unsigned long long>(r.checkpoints));
  if (r.tournaments > 0) {
    // Their events are among the events above, in streams of their own
    // (ledger/README.md, "Tournament streams").
    std::printf("%llu tournament(s) checked: each stream canonical, contiguous from its created\n",
                static_cast<unsigned long long>(r.tournaments));
  }
  if (r.signed_size > 0) {
    std::printf("latest signed checkpoint: size %llu, root %s\n",
                static_cast<unsigned long long>(r.signed_size), r.signed_root_hex.c_str());
  } else {
    std::printf("no signed checkpoint yet: the log is checked for consistency only\n");
  }
  std::printf("signing key %s (%s)\n", r.key_id_hex.c_str(), key_source.c_str());
  if (r.readjudicated) {
    std::printf("re-adjudicated %llu game(s) under their pinned rules: every ruling matches\n",
                static_cast<unsigned long long>(r.games_readjudicated));
    if (r.tournaments_rederived > 0) {
      std::printf(
          "re-derived %llu tournament(s): each folds, its recorded standings match, its "
          "games are its pairings'\n",
          static_cast<unsigned long long>(r.tournaments_rederived));
    }
  } else {
    std::printf("rulings were not re-adjudicated (--no-readjudicate)\n");
  }
  std::printf("unsigned tail: %llu event(s) after the last signed checkpoint\n",
              static_cast<unsigned long long>(r.unsigned_tail));
  if (strict && r.unsigned_tail > 0) {
    std::printf(
        "%s is NOT verified (--strict): %llu event(s) after position %llu are covered by "
        "no signature\n",
        what.c_str(), static_cast<unsigned long long>(r.unsigned_tail),
        static_cast<unsigned long long>(r.signed_size));
    return kExitNegative;
  }
  return 0;
}

// A federation's synced games, each against its venue's own signed
// checkpoints (ledger/venue_audit.h); nothing printed when it has none.
int VerifyVenueProofs(ledger::Store& store, const ledger::AuditOptions& options) {
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = store.OpenReader();
  absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> proofs =
      ledger::VenueProofs::OpenForReading(store.database());
  absl::StatusOr<ledger::VenueAuditReport> r =
      !reader.ok()   ? reader.status()
      : !proofs.ok() ? proofs.status()
                     : ledger::AuditVenueProofs(**reader, **proofs, options);
  if (!r.ok()) return Complain("verify", r.status().message(), ExitCodeOf(r.status()));
  if (!r->intact) {
    const bool tournament = ledger::IsTournamentStream(r->game_id);
    std::printf("synced %s '%s' is NOT proven by its venue: %s\n",
                tournament ? "tournament" : "game",
                tournament ? r->game_id.substr(ledger::kTournamentStreamPrefix.size()).c_str()
                           : r->game_id.c_str(),
                r->why.c_str());
    return kExitNegative;
  }
  if (r->games + r->tournaments == 0) return 0;
  std::printf(
      "venue proofs: %llu synced game(s), %s%llu event(s) in %llu proof(s), each proven in its "
      "venue's signed log; venue key(s) %s\n",
      static_cast<unsigned long long>(r->games),
      r->tournaments == 0 ? "" : absl::StrCat(r->tournaments, " tournament(s), ").c_str(),
      static_cast<unsigned long long>(r->events), static_cast<unsigned long long>(r->proofs),
      absl::StrJoin(r->venues, ", ").c_str());
  return 0;
}

// A C2SP verifier key in `path` (ledger.vkey: one line); nullopt when the
// file holds something else (a PEM or DER key). INVALID_ARGUMENT for a line
// that reads as a verifier key's but is not a valid one.
absl::StatusOr<std::optional<ledger::NoteVerifierKey>> ReadVerifierKeyFile(
    const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadInput(path);
  if (!bytes.ok()) return bytes.status();
  absl::string_view line = absl::StripTrailingAsciiWhitespace(*bytes);
  if (line.find('+') == absl::string_view::npos || absl::StartsWith(line, "-----BEGIN") ||
      line.find('\n') != absl::string_view::npos || line.find('\0') != absl::string_view::npos) {
    return std::nullopt;
  }
  absl::StatusOr<ledger::NoteVerifierKey> key = ledger::ParseVerifierKey(line);
  if (!key.ok()) return key.status();
  return std::optional<ledger::NoteVerifierKey>(*std::move(key));
}

// The key the log is checked against, put in options: a verifier key or a
// public key file when --pubkey names one (or ledger.pub lies beside a
// SQLite database), else the one the evidence carries. Returns where the
// key came from, for the report; an error is the file's.
absl::StatusOr<std::string> TrustKey(const std::string& pubkey, bool from_db,
                                     ledger::AuditOptions* options) {
  absl::StatusOr<std::optional<ledger::NoteVerifierKey>> vkey =
      pubkey.empty() ? std::nullopt : ReadVerifierKeyFile(pubkey);
  if (!vkey.ok()) return vkey.status();
  if (vkey->has_value()) {
    options->public_key_der = (*vkey)->Der();
    options->log_origin = (*vkey)->name;
    return absl::StrCat("trusted, the verifier key of log '", (*vkey)->name, "' from ", pubkey);
  }
  if (!pubkey.empty()) {
    absl::StatusOr<std::string> der = ledger::ReadPublicKeyFile(pubkey);
    if (!der.ok()) return der.status();
    options->public_key_der = *der;
    return "trusted, from " + pubkey;
  }
  return from_db ? "recorded in the database itself: compare its id with the published one"
                 : "carried by the bundle itself: compare its id with the published one";
}

// The ledger.pub beside a SQLite database, the key its server signs with;
// empty when there is none (a PostgreSQL database has no folder of its own).
std::string KeyBeside(const ledger::Store& store, const std::string& db) {
  if (store.shared()) return "";
  std::filesystem::path dir = std::filesystem::path(db).parent_path();
  std::string beside = ((dir.empty() ? std::filesystem::path(".") : dir) / "ledger.pub").string();
  return std::filesystem::exists(beside) ? beside : "";
}

// --bundle: one game's audit bundle, on its own.
int VerifyBundleFile(const std::string& bundle_path, const ledger::AuditOptions& options,
                     const std::string& key_source) {
  absl::StatusOr<std::string> bytes = ReadInput(bundle_path);
  if (!bytes.ok()) {
    return Complain("verify",
                    absl::StrCat("--bundle ", bundle_path, ": ", bytes.status().message()),
                    kExitBadInput);
  }
  v1::AuditBundle bundle;
  if (!bundle.ParseFromString(*bytes)) {
    return Complain("verify",
                    absl::StrCat("--bundle ", bundle_path,
                                 ": not an audit bundle (the binary file `arbiter export "
                                 "--bundle` writes)"),
                    kExitBadInput);
  }
  absl::StatusOr<ledger::AuditReport> r = ledger::AuditBundle(bundle, options);
  if (!r.ok()) {
    return Complain("verify", absl::StrCat("--bundle ", bundle_path, ": ", r.status().message()),
                    kExitBadInput);
  }
  return Report(*r, "bundle of game '" + bundle.game_id() + "'", key_source);
}

// --db: the whole log (or one game's events in it), then the venue proofs of
// its synced games and its witnesses' cosignatures, each only once the step
// before found the ledger intact.
int VerifyDatabase(const Args& args, ledger::Store& store, ledger::AuditOptions& options,
                   const std::string& key_source) {
  if (isatty(STDERR_FILENO)) options.progress = DrawProgress;
  absl::StatusOr<ledger::AuditReport> r = store.Audit(options);
  if (absl::IsNotFound(r.status())) return Complain("verify", r.status().message(), kExitBadInput);
  if (!r.ok()) return Complain("verify", r.status().message(), ExitCodeOf(r.status()));
  const std::optional<std::string>& game = options.game_id;
  int exit =
      Report(*r, game ? "ledger (game '" + *game + "')" : "ledger", key_source, args.Has("strict"));
  if (exit == kExitOk) exit = VerifyVenueProofs(store, options);
  if (exit == kExitOk) exit = VerifyWitnessed(kVerify, args, store);
  return exit;
}

// The usage errors of an offline check (--db or --bundle); nullopt when the
// flags fit together.
std::optional<int> RefuseOfflineMisuse(const Args& args, const std::string& db,
                                       const std::string& bundle_path) {
  if (!db.empty() && !bundle_path.empty()) return UsageError(kVerify, "--db or --bundle, not both");
  for (const char* server_flag : {"json", "server"}) {
    if (args.Has(server_flag)) {
      return UsageError(kVerify, std::string("--") + server_flag + " is for a server, not offline");
    }
  }
  if (!args.positionals().empty() && db.empty()) {
    return UsageError(kVerify, "a bundle holds one game: no GAME with --bundle");
  }
  return std::nullopt;
}

// An offline check, of a database or of a bundle file.
int VerifyOffline(const Args& args, std::string db, const std::string& bundle_path) {
  if (std::optional<int> exit = RefuseOfflineMisuse(args, db, bundle_path)) return *exit;
  ledger::TuneHeapForAudit();  // this process does nothing else
  std::unique_ptr<ledger::Store> store;
  if (!db.empty()) {
    absl::StatusOr<std::unique_ptr<ledger::Store>> opened = ledger::OpenStore(db);
    if (!opened.ok()) return Complain("verify", opened.status().message(), kExitBadInput);
    store = *std::move(opened);
    db = store->database();
  }
  ledger::AuditOptions options;
  if (!args.positionals().empty()) options.game_id = args.positionals()[0];
  AdjudicatorJudge judge;
  tournament::TournamentReferee tournaments;  // folds and derives each tournament again
  if (!args.Has("no-readjudicate")) {
    options.judge = &judge;
    options.tournaments = &tournaments;
  }
  std::string pubkey = args.ValueOr("pubkey", "");
  if (pubkey.empty() && store != nullptr) pubkey = KeyBeside(*store, db);
  absl::StatusOr<std::string> key_source = TrustKey(pubkey, !db.empty(), &options);
  if (!key_source.ok()) {
    return Complain("verify",
                    absl::StrCat("--pubkey ", pubkey, ": ", key_source.status().message()),
                    kExitBadInput);
  }
  if (!bundle_path.empty()) return VerifyBundleFile(bundle_path, options, *key_source);
  return VerifyDatabase(args, *store, options, *key_source);
}

}  // namespace

int RunVerify(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kVerify, argc, argv, &args)) return *exit;
  const std::string db = args.ValueOr("db", "");
  const std::string bundle_path = args.ValueOr("bundle", "");
  if (args.Has("receipt")) return RunReceiptVerify(kVerify, args);
  if (args.Has("export")) return RunExportVerify(kVerify, args);
  if (args.Has("key")) return UsageError(kVerify, "--key is for --receipt");
  if (args.Has("witnesses") && db.empty()) {
    return UsageError(kVerify, "--witnesses is for --db or --receipt");
  }
  if (db.empty() && bundle_path.empty()) {
    for (const char* offline_flag : {"pubkey", "no-readjudicate", "strict"}) {
      if (args.Has(offline_flag)) {
        return UsageError(kVerify, std::string("--") + offline_flag + " is for --db or --bundle");
      }
    }
    return RunRemoteVerify(kVerify, args);
  }
  return VerifyOffline(args, db, bundle_path);
}

}  // namespace arbiter::cli
