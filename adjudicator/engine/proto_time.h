// Conversions between protobuf's Timestamp/Duration and absl::Time/Duration.
// The engine computes in absl types only; protos are its interface.
#ifndef ARBITER_ADJUDICATOR_ENGINE_PROTO_TIME_H_
#define ARBITER_ADJUDICATOR_ENGINE_PROTO_TIME_H_

#include <cstdint>

#include "absl/time/time.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"

namespace arbiter {

inline absl::Duration FromProto(const google::protobuf::Duration& d) {
  return absl::Seconds(d.seconds()) + absl::Nanoseconds(d.nanos());
}

inline absl::Time FromProto(const google::protobuf::Timestamp& t) {
  return absl::FromUnixSeconds(t.seconds()) + absl::Nanoseconds(t.nanos());
}

inline void ToProto(absl::Duration d, google::protobuf::Duration* out) {
  const int64_t s = absl::IDivDuration(d, absl::Seconds(1), &d);
  out->set_seconds(s);
  out->set_nanos(static_cast<int32_t>(absl::ToInt64Nanoseconds(d)));
}

inline void ToProto(absl::Time t, google::protobuf::Timestamp* out) {
  const int64_t s = absl::ToUnixSeconds(t);
  out->set_seconds(s);
  out->set_nanos(static_cast<int32_t>(absl::ToInt64Nanoseconds(t - absl::FromUnixSeconds(s))));
}

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_PROTO_TIME_H_
