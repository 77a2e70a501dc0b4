#include "tests/fuzz/checked_fold.h"

#include <utility>

#include "proto/canonical/canonical_bytes.h"
#include "rulesdb/rules.h"
#include "tests/fuzz/fuzz_check.h"

namespace arbiter::fuzz {

std::string Snapshot(const Adjudicator& a) {
  std::string out = CanonicalBytes(a.State());
  for (const v1::Ruling& r : a.rulings()) out += CanonicalBytes(r);
  if (a.result() != nullptr) out += "result:" + CanonicalBytes(*a.result());
  out += "events:" + std::to_string(a.events());
  return out;
}

bool CheckedFold::Open(const v1::GameCreated& created) {
  absl::StatusOr<Rules> rules = LoadRulesFor(created);
  if (!rules.ok()) return false;
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*rules);
  FUZZ_CHECK(a.ok(), a.status().ToString());
  rules_ = *std::move(rules);
  adjudicator_.emplace(*std::move(a));
  accepted_.clear();
  return true;
}

bool CheckedFold::Apply(const v1::Event& event) {
  // A copy to compare with when the event is refused: cheaper than
  // snapshotting before every event.
  const Adjudicator before_copy = *adjudicator_;
  absl::StatusOr<std::vector<v1::Ruling>> r = adjudicator_->Apply(event);
  if (!r.ok()) {
    const std::string before = Snapshot(before_copy);
    FUZZ_CHECK(absl::IsInvalidArgument(r.status()) || absl::IsFailedPrecondition(r.status()) ||
                   absl::IsNotFound(r.status()) || absl::IsPermissionDenied(r.status()),
               "bad input must be INVALID_ARGUMENT, FAILED_PRECONDITION, NOT_FOUND or "
               "PERMISSION_DENIED: " +
                   r.status().ToString());
    FUZZ_CHECK(Snapshot(*adjudicator_) == before,
               "a refused event changed the fold: " + r.status().ToString() +
                   "\nevent: " + event.ShortDebugString());
    last_error_ = r.status();
    return false;
  }
  accepted_.push_back(event);
  return true;
}

void CheckedFold::CheckReplay() const {
  absl::StatusOr<Adjudicator> fresh = Adjudicator::Create(*rules_);
  FUZZ_CHECK(fresh.ok(), fresh.status().ToString());
  for (const v1::Event& e : accepted_) {
    absl::StatusOr<std::vector<v1::Ruling>> r = fresh->Apply(e);
    FUZZ_CHECK(r.ok(), "an accepted event was refused on replay: " + r.status().ToString() +
                           "\nevent: " + e.ShortDebugString());
  }
  FUZZ_CHECK(Snapshot(*fresh) == Snapshot(*adjudicator_),
             "replaying the accepted events gave a different fold");
}

}  // namespace arbiter::fuzz
