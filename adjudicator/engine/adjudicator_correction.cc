// The fold's part of a correction (`eventVoided`; what one is: corrections.h):
// the replay of the game's events without the voided one, reusing the numbers
// of the rulings it issues again unchanged, and the ruling at the correction
// of what time alone decided by its instant.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {

void Adjudicator::Skip(const v1::Event& e) {
  log_.push_back(e);
  ++events_;
  if (e.has_event_voided() && e.has_at()) last_at_ = std::max(last_at_, FromProto(e.at()));
}

absl::StatusOr<Adjudicator> Adjudicator::Replay(uint32_t voided,
                                                const std::vector<v1::Ruling>& notices) const {
  Adjudicator fresh(rules_);
  fresh.history_ = history_.ForReplay(notices);
  for (uint32_t position = 1; position <= log_.size(); ++position) {
    const v1::Event& e = log_[position - 1];
    if (position == voided || voided_.contains(position)) {
      fresh.voided_.insert(position);
      fresh.Skip(e);
      continue;
    }
    // An earlier correction: its event is skipped above, its rulings are
    // in the history already; what time decided at it is ruled again there
    // (and so keeps its number).
    if (e.has_event_voided()) {
      fresh.SettleAtCorrection(e);
      fresh.Skip(e);
      continue;
    }
    if (absl::StatusOr<std::vector<v1::Ruling>> r = fresh.Apply(e); !r.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "eventVoided: without event ", voided, ", event ", position, " would be refused (",
          r.status().message(), "); void the later events first, latest first"));
    }
  }
  return fresh;
}

void Adjudicator::SettleAtCorrection(const v1::Event& correction) {
  const v1::Event* event = event_;
  event_ = &correction;
  at_ = TakenAt(correction, last_at_);
  SettleTime(true);
  event_ = event;
}

}  // namespace arbiter
