#include "adjudicator/engine/lateness.h"

namespace arbiter {

void Lateness::Start(absl::Time scheduled_start, bool black_absent, bool white_absent) {
  scheduled_start_ = scheduled_start;
  state_[0].absent = black_absent;
  state_[1].absent = white_absent;
}

void Lateness::Resume(absl::Time at) {
  resumed_at_ = at;
  for (PlayerState& p : state_) {
    if (!p.absent) p.may_be_late = true;
  }
}

std::optional<Lateness::Overdue> Lateness::OverdueAt(absl::Time at) const {
  if (!limit_.has_value()) return std::nullopt;
  const absl::Time deadline = scheduled_start_ + *limit_;
  if (at <= deadline) return std::nullopt;  // the limit itself is in time
  Overdue o{deadline, state_[0].absent, state_[1].absent};
  if (!o.black && !o.white) return std::nullopt;
  return o;
}

std::optional<Lateness::Overdue> Lateness::NextForfeit() const {
  if (!limit_.has_value()) return std::nullopt;
  Overdue o{scheduled_start_ + *limit_, state_[0].absent, state_[1].absent};
  if (!o.black && !o.white) return std::nullopt;
  return o;
}

std::optional<Lateness::Arrival> Lateness::Arrive(v1::Color c, absl::Time at) {
  PlayerState& p = state_[Index(c)];
  std::optional<Arrival> arrival;
  if (p.absent) {
    const absl::Duration late = at - scheduled_start_;
    if (late > absl::ZeroDuration()) {
      arrival = Arrival{late, limit_.has_value() && late > *limit_};
    }
  } else if (p.may_be_late) {
    const absl::Duration late = at - resumed_at_;
    if (late > absl::ZeroDuration()) arrival = Arrival{late, false, true};
  }
  p = {};
  return arrival;
}

void Lateness::Seen(v1::Color c) { state_[Index(c)].may_be_late = false; }

}  // namespace arbiter
