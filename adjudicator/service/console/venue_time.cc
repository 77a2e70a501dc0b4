#include "adjudicator/service/console/venue_time.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::service::console {

VenueTime::VenueTime() : VenueTime(absl::UTCTimeZone(), "UTC", false) {}

VenueTime::VenueTime(absl::TimeZone zone, std::string name, bool given)
    : zone_(zone), name_(std::move(name)), given_(given) {}

absl::StatusOr<VenueTime> VenueTime::Load(absl::string_view name) {
  absl::TimeZone zone;
  // LoadTimeZone also reads fixed offsets and paths; a venue names a place.
  const bool named = !name.empty() && name.size() <= 64 && name.front() != '/' &&
                     name.find("..") == absl::string_view::npos;
  if (!named || !absl::LoadTimeZone(std::string(name), &zone)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown time zone '", name.substr(0, 64),
                     "': give an IANA name such as Asia/Shanghai or Europe/Paris, or UTC"));
  }
  return VenueTime(zone, std::string(name), true);
}

std::string VenueTime::Format(absl::Time t) const {
  return absl::StrCat(absl::FormatTime("%Y-%m-%d %H:%M:%S", t, zone_), " ",
                      OffsetLabel(zone_.At(t).offset));
}

std::string OffsetLabel(int seconds_east) {
  if (seconds_east == 0) return "UTC";
  const int minutes = std::abs(seconds_east) / 60;
  std::string label = absl::StrCat("UTC", seconds_east < 0 ? "-" : "+", minutes / 60);
  if (minutes % 60 != 0) absl::StrAppend(&label, ":", minutes % 60 < 10 ? "0" : "", minutes % 60);
  return label;
}

}  // namespace arbiter::service::console
