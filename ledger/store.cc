#include "ledger/store.h"

#include "ledger/internal/audit_source.h"
#include "ledger/internal/backends.h"

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

absl::StatusOr<AuditReport> Store::Audit(const AuditOptions& options) {
  absl::StatusOr<std::unique_ptr<AuditSource>> source = OpenAuditSource();
  if (!source.ok()) return source.status();
  return AuditLog(**source, options);
}

bool IsSharedStore(const std::string& location) {
  absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(location);
  return store.ok() && (*store)->shared();
}

}  // namespace arbiter::ledger
