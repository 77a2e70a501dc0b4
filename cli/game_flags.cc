#include "cli/game_flags.h"

#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter::cli {
namespace {

bool ParseDurationFlag(const std::string& text, google::protobuf::Duration* out) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d < absl::ZeroDuration()) return false;
  ToProto(d, out);
  return true;
}

}  // namespace

bool ParseVenueFlag(const Args& args, v1::GameCreated::Venue* venue, std::string* why) {
  std::optional<std::string> v = args.Value("venue");
  if (!v) return true;
  if (!v1::GameCreated::Venue_Parse(UpperChoice(*v), venue) ||
      *venue == v1::GameCreated::VENUE_UNSPECIFIED) {
    *why = "--venue: SAME_SITE, SEPARATE_SITE or RAPID";
    return false;
  }
  return true;
}

bool ParseTimeControlFlags(const Args& args, v1::TimeControl* tc, std::string* why) {
  if (auto v = args.Value("main-time")) {
    if (!ParseDurationFlag(*v, tc->mutable_main_time())) {
      *why = "--main-time: a duration such as 2h or 90m";
      return false;
    }
  }
  if (auto v = args.Value("byo-yomi")) {
    std::vector<std::string> parts = absl::StrSplit(*v, '/');
    int periods = 0;
    v1::ByoYomi* b = tc->mutable_byo_yomi();
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &periods) || periods <= 0 ||
        !ParseDurationFlag(parts[1], b->mutable_period_time())) {
      *why = "--byo-yomi: PERIODS/DURATION such as 5/60s";
      return false;
    }
    b->set_periods(periods);
  }
  return true;
}

}  // namespace arbiter::cli
