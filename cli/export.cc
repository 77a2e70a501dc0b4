// `arbiter export GAME`: one game, from a server (cli/client_remote.cc) or,
// with --db and --bundle, offline: its self-contained audit bundle
// (arbiter.v1.AuditBundle, binary proto), i.e. its events and rulings with
// inclusion proofs against the signed checkpoint that covers them, the
// public key and the rules pin. `arbiter verify --bundle FILE` checks it
// with no database. Offline, exit 1 if the ledger does not match its
// checkpoint; an unknown game, or one no checkpoint covers yet, is bad input.
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/game_exports.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/ledger_path.h"
#include "cli/receipt.h"
#include "ledger/bundle.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

const std::string kFormatHelp = absl::StrCat("from a server: ", service::GameExportNames());
const FlagSpec kExportFlags[] = {
    {"format", "FORMAT", kFormatHelp},
    {"out", "FILE", "from a server: write to FILE (default stdout; a bundle needs it)"},
    {"db", "PATH", "offline: the ledger (the data directory of `arbiter serve`, or its ledger.db)"},
    {"bundle", "FILE", "offline: write the audit bundle to FILE"},
    {"receipt", "N",
     "offline: ruling N's receipt, a C2SP tlog-proof (to --out FILE or stdout); for "
     "tournaments/T, its event at revision N"},
    kServerFlag,
};
const CommandSpec kExport = {
    .name = "export",
    .positionals = "GAME",
    .summary = "write one game: from a server as SGF, JSON or an audit bundle; offline a bundle",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kExportFlags,
    .notes =
        "  arbiter export GAME --format FORMAT [--out FILE] [--server ADDR]\n"
        "  arbiter export GAME --db PATH --bundle FILE      (offline, no server)\n"
        "  arbiter export GAME --db PATH --receipt N [--out FILE]   (ruling N's receipt)\n"
        "  arbiter export tournaments/T --db PATH --receipt N [--out FILE]   (its event N)\n"
        "An audit bundle holds the game's events and rulings with inclusion proofs against\n"
        "a signed checkpoint; `arbiter verify --bundle FILE` checks it with no database.\n"
        "Offline, exit 1 when the ledger does not match its checkpoint.\n",
};

}  // namespace

int RunExport(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kExport, argc, argv, &args)) return *exit;
  if (args.Has("receipt")) return RunReceiptExport(kExport, args);
  if (!args.Has("db") && !args.Has("bundle")) return RunRemoteExport(kExport, args);
  if (!args.Has("db") || !args.Has("bundle")) {
    return UsageError(kExport, "offline, give both --db PATH and --bundle FILE");
  }
  for (const char* server_flag : {"format", "out", "server"}) {
    if (args.Has(server_flag)) {
      return UsageError(kExport, std::string("--") + server_flag + " is for a server, not --db");
    }
  }
  std::string db = *args.Value("db");
  const std::string out = *args.Value("bundle");
  const std::string& game = args.positionals()[0];
  // A bundle that cannot be written is said before the ledger is read.
  if (absl::Status s = CheckWritable(out); !s.ok()) {
    return Complain("export", absl::StrCat("--bundle ", out, ": ", s.message()), kExitBadInput);
  }
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(db);
  if (store.ok()) db = (*store)->database();
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader =
      store.ok() ? (*store)->OpenReader() : store.status();
  if (!reader.ok()) {
    return Complain(
        "export", absl::StrCat("--db ", db, ": ", reader.status().message()),
        absl::IsNotFound(reader.status()) ? kExitBadInput : ExitCodeOf(reader.status()));
  }
  absl::StatusOr<v1::AuditBundle> bundle = ledger::ExportBundle(**reader, game);
  if (!bundle.ok()) {
    // DATA_LOSS here is the answer that the ledger was altered, not a failure.
    return Complain(
        "export", bundle.status().message(),
        absl::IsDataLoss(bundle.status()) ? kExitNegative : ExitCodeOf(bundle.status()));
  }
  std::string bytes;
  if (!bundle->SerializeToString(&bytes)) {
    return Complain("export", "cannot serialize the bundle", kExitUnavailable);
  }
  if (absl::Status s = WriteFileAtomically(out, bytes); !s.ok()) {
    return Complain("export", absl::StrCat("--bundle: ", s.message()), ExitCodeOf(s));
  }
  std::printf("exported %d event(s) of game '%s' against the checkpoint at size %llu to %s\n",
              bundle->entries_size(), game.c_str(),
              static_cast<unsigned long long>(bundle->checkpoint().tree_size()), out.c_str());
  return 0;
}

}  // namespace arbiter::cli
