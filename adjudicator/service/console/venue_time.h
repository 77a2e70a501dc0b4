// The venue's clock, as the pages people read show time.
//
// The ledger keeps UTC. A ruling slip handed to a player in Beijing, or the
// timeline a chief arbiter reads there, says the time of the hall they are
// in: `arbiter serve --time-zone Asia/Shanghai` names it (an IANA zone, from
// the system's tz database), and every time those pages show carries its
// offset ("2026-12-07 11:15:00 UTC+8"), so a slip read months later, or in
// another country, is never ambiguous. The default is UTC; the floor's page,
// whose times a phone in the hall enters, then keeps the phone's own zone.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_VENUE_TIME_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_VENUE_TIME_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace arbiter::service::console {

class VenueTime {
 public:
  // UTC, no zone given.
  VenueTime();

  // The zone `name` ("UTC", or an IANA name such as "Asia/Shanghai");
  // INVALID_ARGUMENT naming it when the tz database does not know it.
  static absl::StatusOr<VenueTime> Load(absl::string_view name);

  // "2026-12-07 11:15:00 UTC+8": the venue's date and time to the second,
  // and its offset from UTC at that instant ("UTC", "UTC-3:30").
  std::string Format(absl::Time t) const;

  // The zone's name as given ("UTC" by default): what the pages' scripts
  // pass to Intl.DateTimeFormat.
  const std::string& name() const { return name_; }

  // Whether the zone was given (Load), not the default: the floor's page
  // enters and says times in the hall's zone only when one was.
  bool given() const { return given_; }

 private:
  VenueTime(absl::TimeZone zone, std::string name, bool given);

  absl::TimeZone zone_;
  std::string name_;
  bool given_;
};

// "UTC", "UTC+8", "UTC-3:30": an offset east of UTC in seconds, said as the
// floor's page says it (static/tables.js).
std::string OffsetLabel(int seconds_east);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_VENUE_TIME_H_
