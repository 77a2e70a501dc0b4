// When the passing of time alone will decide something (Adjudicator::
// NextDeadline). The instants are those SettleTime rules at; keep the two in
// step: a flag of the running clock, or the lateness limit of an absent
// player, the earlier first (lateness on a tie, as SettleTime does).
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {
namespace {

// Rules that take effect only strictly after an instant are recorded one
// whole second later: the ledger's times then stay in whole seconds.
constexpr absl::Duration kPastTheInstant = absl::Seconds(1);

v1::Event TimeExpired(absl::Time at, v1::Color color) {
  v1::Event e;
  ToProto(at, e.mutable_at());
  e.mutable_time_expired()->set_color(color);
  return e;
}

}  // namespace

std::optional<Adjudicator::Deadline> Adjudicator::NextDeadline() const {
  if (!started_ || result_.has_value() || cancelled_.has_value()) return std::nullopt;
  std::optional<Deadline> flag;
  // A game recorded without its moves cannot say whose clock runs nor when
  // a flag falls (ClockKnown): time alone decides nothing there; the
  // arbiter's report of a flag does.
  if (clocks_.running() && ClockKnown()) {
    // Whose clock runs: the opponent's from the move while a press is
    // awaited (the press is taken to be at the move), else the owner's.
    const v1::Color c = clocks_.awaiting_press() ? Opponent(clocks_.owner()) : clocks_.owner();
    const PlayerClock& clock = clocks_.clock(c);
    const absl::Duration offset = clock.FlagOffset();
    if (!clock.flagged() && offset != absl::InfiniteDuration()) {
      const absl::Time instant = clocks_.awaiting_press()
                                     ? clocks_.move_at() + offset
                                     : clocks_.turn_start() + (offset - clocks_.turn_carry());
      const absl::Time at = clock.Expired(offset) ? instant : instant + kPastTheInstant;
      flag = Deadline{at, instant, TimeExpired(at, c)};
    }
  }
  const std::optional<Lateness::Overdue> late = lateness_.NextForfeit();
  if (late.has_value() && (!flag.has_value() || late->deadline <= flag->instant)) {
    const absl::Time at = late->deadline + kPastTheInstant;
    // Both absent: the report names Black; the engine rules both first.
    return Deadline{at, late->deadline, TimeExpired(at, late->black ? v1::BLACK : v1::WHITE)};
  }
  if (flag.has_value() && late.has_value() && late->deadline < flag->at) {
    // A flag ruled strictly after its instant, with a lateness limit in the
    // second that follows: report it at the limit itself, which is still in
    // time for the absent player and already past the flag.
    flag->at = late->deadline;
    ToProto(flag->at, flag->event.mutable_at());
  }
  return flag;
}

}  // namespace arbiter
