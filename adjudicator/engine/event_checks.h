// Checks of event fields shared by the adjudicator's handlers: each turns a
// bad field into an InvalidArgument error that names the field.
#ifndef ARBITER_ADJUDICATOR_ENGINE_EVENT_CHECKS_H_
#define ARBITER_ADJUDICATOR_ENGINE_EVENT_CHECKS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "adjudicator/engine/point.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/util/time_util.h"

namespace arbiter {

// The vertex of GTP point `gtp` on a board of `size`; `what` names the field.
inline absl::StatusOr<int> ParsePointField(std::string_view gtp, int size, absl::string_view what) {
  absl::StatusOr<int> v = ParsePoint(gtp, size);
  if (!v.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", v.status().message()));
  }
  return v;
}

// A duration field that must not be negative. Its range is the one
// google.protobuf.Duration defines (at most 10,000 years): the JSON decoder
// refuses anything outside it, and a binary client must get the same answer
// rather than a value that overflows the engine's arithmetic.
inline absl::Status CheckDuration(const google::protobuf::Duration& d, absl::string_view what) {
  if (d.seconds() < 0 || d.nanos() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must not be negative"));
  }
  if (d.seconds() > google::protobuf::util::TimeUtil::kDurationMaxSeconds ||
      d.nanos() > 999'999'999) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is outside the range of google.protobuf.Duration"));
  }
  return absl::OkStatus();
}

// A timestamp field: within google.protobuf.Timestamp's range (years 1 to
// 9999), as the JSON decoder requires.
inline absl::Status CheckTimestamp(const google::protobuf::Timestamp& t, absl::string_view what) {
  if (t.seconds() < google::protobuf::util::TimeUtil::kTimestampMinSeconds ||
      t.seconds() > google::protobuf::util::TimeUtil::kTimestampMaxSeconds || t.nanos() < 0 ||
      t.nanos() > 999'999'999) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is outside the range of google.protobuf.Timestamp"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_EVENT_CHECKS_H_
