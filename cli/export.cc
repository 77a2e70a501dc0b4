// `arbiter export GAME --db PATH --bundle FILE`: writes one game's
// self-contained audit bundle (arbiter.v1.AuditBundle, binary proto): its
// events and rulings with inclusion proofs against the signed checkpoint
// that covers them, the public key and the rules pin. `arbiter verify
// --bundle FILE` checks it with no database. Exit 0 on success, 1 if the
// ledger does not match its checkpoint, 2 on bad usage or an unknown game
// or one no checkpoint covers yet, 3 when the database cannot be read.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/commands.h"
#include "cli/ledger_path.h"
#include "ledger/bundle.h"
#include "ledger/log_reader.h"

namespace arbiter::cli {

int RunExport(int argc, char** argv) {
  if (WantsServer(argc, argv)) return RunRemoteExport(argc, argv);  // cli/client_remote.cc
  std::string db, out, game;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--db" || arg == "--bundle") && i + 1 < argc) {
      (arg == "--db" ? db : out) = argv[++i];
    } else if (!arg.empty() && arg[0] != '-' && game.empty()) {
      game = arg;
    } else {
      game.clear();
      break;
    }
  }
  if (db.empty() || out.empty() || game.empty()) {
    std::fprintf(stderr, "usage: arbiter export GAME --db PATH --bundle FILE\n");
    return 2;
  }
  db = LedgerDatabase(db);
  if (!std::filesystem::exists(db)) {
    std::fprintf(stderr, "arbiter export: no database at %s\n", db.c_str());
    return 2;
  }
  absl::StatusOr<ledger::LogReader> reader = ledger::LogReader::Open(db);
  if (!reader.ok()) {
    std::fprintf(stderr, "arbiter export: %s\n", std::string(reader.status().message()).c_str());
    return 3;
  }
  absl::StatusOr<v1::AuditBundle> bundle = ledger::ExportBundle(*reader, game);
  if (!bundle.ok()) {
    std::fprintf(stderr, "arbiter export: %s\n", std::string(bundle.status().message()).c_str());
    if (absl::IsDataLoss(bundle.status())) return 1;
    if (absl::IsNotFound(bundle.status()) || absl::IsFailedPrecondition(bundle.status())) return 2;
    return 3;
  }
  // Written beside the target and renamed, so a reader never sees half a bundle.
  std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !bundle->SerializeToOstream(&f) || !f.flush()) {
      std::fprintf(stderr, "arbiter export: cannot write %s\n", tmp.c_str());
      return 3;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    std::fprintf(stderr, "arbiter export: cannot write %s: %s\n", out.c_str(), ec.message().c_str());
    return 3;
  }
  std::printf("exported %d event(s) of game '%s' against the checkpoint at size %llu to %s\n",
              bundle->entries_size(), game.c_str(),
              static_cast<unsigned long long>(bundle->checkpoint().tree_size()), out.c_str());
  return 0;
}

}  // namespace arbiter::cli
