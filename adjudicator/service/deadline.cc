#include "adjudicator/service/deadline.h"

#include <vector>

#include "adjudicator/engine/proto_time.h"

namespace arbiter::service {

std::optional<Deadline> NextDeadline(const Adjudicator& game, absl::Duration horizon) {
  if (!game.game().live() || game.result() != nullptr) return std::nullopt;
  std::optional<Adjudicator::Deadline> next = game.NextDeadline();
  if (!next.has_value()) return std::nullopt;
  const absl::Time as_of = FromProto(game.State().as_of());
  if (next->at - as_of > horizon) return std::nullopt;

  Deadline d{next->at, std::move(next->event), v1::Ruling()};
  d.event.set_actor("server:clock");
  Adjudicator probe = game;
  absl::StatusOr<std::vector<v1::Ruling>> ruled = probe.Apply(d.event);
  if (!ruled.ok() || ruled->empty() || !ruled->front().has_at() ||
      FromProto(ruled->front().at()) != next->instant) {
    return std::nullopt;  // the engine and its own prediction disagree
  }
  d.predicted = ruled->front();
  return d;
}

}  // namespace arbiter::service
