#include "adjudicator/service/deadline.h"

#include <vector>

#include "adjudicator/proto_time.h"

namespace arbiter::service {
namespace {

// The first ruling `probe` produces when shown `event`, if any.
std::optional<v1::Ruling> FirstRuling(Adjudicator probe, const v1::Event& event) {
  absl::StatusOr<std::vector<v1::Ruling>> r = probe.Apply(event);
  if (!r.ok() || r->empty()) return std::nullopt;
  return r->front();
}

v1::Event TimeExpiredAt(absl::Time at, v1::Color color) {
  v1::Event e;
  ToProto(at, e.mutable_at());
  e.mutable_time_expired()->set_color(color);
  e.set_actor("server:clock");
  return e;
}

}  // namespace

std::optional<Deadline> NextDeadline(const Adjudicator& game, absl::Duration horizon) {
  if (!game.game().live() || game.result() != nullptr) return std::nullopt;
  const v1::GameState state = game.State();
  const absl::Time as_of = FromProto(state.as_of());

  // An appeal changes nothing by itself but lets the engine settle time
  // first; whatever it rules, time alone decided.
  v1::Event neutral;
  ToProto(as_of + horizon, neutral.mutable_at());
  neutral.mutable_appeal_lodged();
  std::optional<v1::Ruling> first = FirstRuling(game, neutral);
  if (!first.has_value() || !first->has_at()) return std::nullopt;
  const absl::Time instant = FromProto(first->at());

  v1::Color color = first->against() == v1::Ruling::WHITE ? v1::WHITE : v1::BLACK;
  for (absl::Duration past : {absl::ZeroDuration(), absl::Seconds(1)}) {
    Deadline d{instant + past, TimeExpiredAt(instant + past, color), *first};
    std::optional<v1::Ruling> got = FirstRuling(game, d.event);
    if (!got.has_value()) continue;
    // The event number differs from the probe's by nothing (same position),
    // so the whole ruling must match.
    if (got->SerializeAsString() == first->SerializeAsString()) return d;
  }
  return std::nullopt;
}

}  // namespace arbiter::service
