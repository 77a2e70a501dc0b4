#include "ledger/store.h"

#include "ledger/backends.h"

namespace arbiter::ledger {
namespace {

const Backend* BackendOf(const std::string& location) {
  for (const Backend& b : kBackends) {
    if (b.claims(location)) return &b;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Store>> OpenStore(const std::string& location,
                                                 StoreOptions options) {
  if (location.empty()) return absl::InvalidArgumentError("the ledger needs a location");
  const Backend* backend = BackendOf(location);
  if (backend == nullptr) {
    return absl::InvalidArgumentError("no ledger backend takes '" + location + "'");
  }
  return backend->open(location, options);
}

bool IsSharedStore(const std::string& location) {
  absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(location);
  return store.ok() && (*store)->shared();
}

}  // namespace arbiter::ledger
