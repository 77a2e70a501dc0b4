// Bounds in bytes on what a client may have stored: every string field of
// an event, and the event as a whole, checked before anything is judged or
// written, so no value can outgrow the messages that later carry it back
// (history, exports, watch streams) or the status that refuses it.
//
//   keys        idempotency_key (request_id), game_id           128 bytes
//   free text   decision, grounds, note, reason                 1,024 bytes
//   names       every other string (player names and ranks,    256 bytes
//               rulesets, points, option ids, ...)
//   an event    its serialized bytes                            16 KiB
//
// A refusal names the field and quotes at most kQuotedPrefix bytes of the
// value (escaped), never the value itself.
#ifndef ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_
#define ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace arbiter::service {

inline constexpr size_t kMaxKeyBytes = 128;
inline constexpr size_t kMaxTextBytes = 1024;
inline constexpr size_t kMaxNameBytes = 256;
inline constexpr size_t kMaxEventBytes = 16 * 1024;
inline constexpr size_t kQuotedPrefix = 16;

// The byte limit of string field `field_name` (a proto field name).
size_t StringLimit(absl::string_view field_name);

// OK when every string field of `message` (nested and repeated ones too) is
// within its limit and the message within `max_bytes`; else
// INVALID_ARGUMENT naming `where` + the field's path, its size and limit,
// and the value's first bytes.
absl::Status CheckBounds(const google::protobuf::Message& message, absl::string_view where,
                         size_t max_bytes = kMaxEventBytes);

// At most kQuotedPrefix bytes of `value`, C-escaped, with "…" when cut:
// what a message may quote of a client's value.
std::string QuotedPrefix(absl::string_view value);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_
