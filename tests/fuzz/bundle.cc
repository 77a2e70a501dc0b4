// Fuzz target bundle: bytes as `arbiter verify --bundle` reads them (a
// binary AuditBundle), verified with the adjudicator as judge.
#include <string>

#include "adjudicator/judge/adjudicator_judge.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/audit.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arbiter::fuzz {

void Bundle(const uint8_t* data, size_t size) {
  v1::AuditBundle bundle;
  if (!bundle.ParseFromArray(data, static_cast<int>(size))) return;
  AdjudicatorJudge judge;
  ledger::AuditOptions options;
  options.judge = &judge;
  absl::StatusOr<ledger::AuditReport> report = ledger::AuditBundle(bundle, options);
  if (!report.ok()) return;
  if (report->intact) {
    FUZZ_CHECK(report->events == static_cast<uint64_t>(bundle.entries_size()),
               "an intact bundle's report must count every entry");
    FUZZ_CHECK(report->why.empty(), "an intact report gives no reason");
  } else {
    FUZZ_CHECK(!report->why.empty(), "a bundle found not intact must say why");
  }
}

}  // namespace arbiter::fuzz
