// `arbiter serve --witness-key FILE [--witness-name NAME] --witness-for
// ORIGIN=VKEY...`: the server is also a C2SP tlog-witness of the logs named
// (ledger/witness.h), on its console's HTTP server
// (console/witness_routes.h). Its state is `witness/` in the data folder.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WITNESS_HOST_H_
#define ARBITER_ADJUDICATOR_SERVICE_WITNESS_HOST_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ledger/witness.h"

namespace arbiter::service {

struct WitnessOptions {
  // The witness's Ed25519 key (PEM, PKCS#8), made with mode 0600 if absent;
  // empty: the server witnesses nothing.
  std::string key_file;
  // Its key name, a schema-less URL (default: HOSTNAME/witness).
  std::string name;
  // The logs it cosigns: (origin, the log's signed-note verifier key). An
  // origin given twice trusts each key given for it.
  std::vector<std::pair<std::string, std::string>> logs;
};

// The witness `options` describe, its state read from `state_dir`.
// INVALID_ARGUMENT for a malformed verifier key, no log, or an invalid
// name; UNAVAILABLE when the key or the state cannot be read or made;
// DATA_LOSS for a state file this server did not write.
absl::StatusOr<std::unique_ptr<ledger::Witness>> OpenWitness(const WitnessOptions& options,
                                                             const std::string& state_dir);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WITNESS_HOST_H_
