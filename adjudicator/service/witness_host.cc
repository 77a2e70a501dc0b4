#include "adjudicator/service/witness_host.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/witness_state.h"

namespace arbiter::service {

absl::StatusOr<std::unique_ptr<ledger::Witness>> OpenWitness(const WitnessOptions& options,
                                                             const std::string& state_dir) {
  if (options.logs.empty()) {
    return absl::InvalidArgumentError(
        "--witness-key: give the logs it witnesses, --witness-for ORIGIN=VKEY");
  }
  std::string name = options.name;
  if (name.empty()) {
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    name = absl::StrCat(host[0] != '\0' ? host : "localhost", "/witness");
  }
  if (!ledger::IsValidNoteName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--witness-name '", name, "': a key name has no space and no '+'"));
  }
  ledger::Witness::Logs logs;
  for (const auto& [origin, vkey] : options.logs) {
    absl::StatusOr<ledger::NoteVerifierKey> key = ledger::ParseVerifierKey(vkey);
    if (!key.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--witness-for ", origin, ": ", key.status().message()));
    }
    logs[origin].push_back(*std::move(key));
  }
  absl::StatusOr<ledger::Signer> key = ledger::Signer::LoadOrCreate(options.key_file);
  if (!key.ok()) {
    return absl::UnavailableError(
        absl::StrCat("--witness-key ", options.key_file, ": ", key.status().message()));
  }
  absl::StatusOr<std::unique_ptr<ledger::WitnessState>> state =
      ledger::WitnessState::Open(state_dir);
  if (!state.ok()) return state.status();
  return std::make_unique<ledger::Witness>(ledger::Cosigner(name, *std::move(key)), std::move(logs),
                                           *std::move(state));
}

}  // namespace arbiter::service
