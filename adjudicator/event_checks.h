// Checks of event fields shared by the adjudicator's handlers: each turns a
// bad field into an InvalidArgument error that names the field.
#ifndef ARBITER_ADJUDICATOR_EVENT_CHECKS_H_
#define ARBITER_ADJUDICATOR_EVENT_CHECKS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "adjudicator/point.h"
#include "google/protobuf/duration.pb.h"

namespace arbiter {

// The vertex of GTP point `gtp` on a board of `size`; `what` names the field.
inline absl::StatusOr<int> ParsePointField(std::string_view gtp, int size, absl::string_view what) {
  absl::StatusOr<int> v = ParsePoint(gtp, size);
  if (!v.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", v.status().message()));
  }
  return v;
}

// A duration field that must not be negative.
inline absl::Status CheckDuration(const google::protobuf::Duration& d, absl::string_view what) {
  if (d.seconds() < 0 || d.nanos() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must not be negative"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_EVENT_CHECKS_H_
