// Bounds in bytes: on every string field of every request (events and
// their fields included), checked before anything is judged or written, so
// no value can outgrow the messages that later carry it back (history,
// exports, watch streams) or the status that refuses it; and on what one
// response or one watch stream may hold. The service README's "Bounds"
// is the same table for clients.
//
//   keys        idempotency_key, request_id, game_id,          128 bytes
//               tournament_id, page_token
//   free text   decision, grounds, note, reason                 1,024 bytes
//   files       opengotha_xml (ImportTournament)                4 MiB (gRPC's message limit)
//   names       every other string (resource names, player     256 bytes
//               names and ranks, rulesets, points, option and
//               clause ids, ...)
//   an event    its serialized bytes                            16 KiB
//   a batch     AppendEvents' events together                   1 MiB
//               (and the event bytes and rulings one
//               SyncVenueGame request carries)
//   a page      ListEvents, ListRulings, ExportGame content     1 MiB
//   a watcher   what a watch stream holds for a client that     1 MiB
//               does not read; then RESOURCE_EXHAUSTED
//   a tournament its record (the Tournament that every          2 MiB
//               tournament method but GetStandings and Export
//               answers), and its players                  10,000
//
// A refusal names the field and quotes at most kQuotedPrefix bytes of the
// value (escaped), never the value itself. The same walk refuses an enum
// field holding a number its type does not name (proto3 keeps such a number
// as it came: a venue of 55 would be signed into the log as it is).
#ifndef ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_
#define ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace arbiter::service {

inline constexpr size_t kMaxKeyBytes = 128;
inline constexpr size_t kMaxTextBytes = 1024;
inline constexpr size_t kMaxNameBytes = 256;
inline constexpr size_t kMaxEventBytes = 16 * 1024;
inline constexpr size_t kMaxFileBytes = 4 << 20;
inline constexpr size_t kMaxBatchBytes = 1 << 20;
inline constexpr size_t kMaxPageBytes = 1 << 20;
inline constexpr size_t kMaxWatchBufferBytes = 1 << 20;
inline constexpr size_t kMaxTournamentBytes = 2 << 20;
// A tournament's players: a record within its bytes could hold 60,000 of
// them, and a fold checks each one added against those before it, so such a
// record cost seconds of CPU on every read (an outside probe). Ten thousand
// is more than any event a chief arbiter runs as one tournament.
inline constexpr int kMaxTournamentPlayers = 10000;
inline constexpr size_t kQuotedPrefix = 16;

// The byte limit of string field `field_name` (a proto field name).
size_t StringLimit(absl::string_view field_name);

// OK when every string field of `message` (nested and repeated ones too) is
// within its limit, every enum field holds a value of its type, and the
// message is within `max_bytes`; else
// INVALID_ARGUMENT naming `where` + the field's path, its size and limit,
// and the value's first bytes.
absl::Status CheckBounds(const google::protobuf::Message& message, absl::string_view where,
                         size_t max_bytes = kMaxEventBytes);

// OK when every string and bytes field of the request `message` (nested and
// repeated ones too) is within its limit and every enum field holds a value
// of its type; else INVALID_ARGUMENT naming the field's path, as CheckBounds. Its size as a whole
// is gRPC's to bound. A venue's AuditBundle (SyncVenueGame) is left to its method, which bounds its
// game id, each event and all the events and rulings it carries.
absl::Status CheckRequest(const google::protobuf::Message& message);

// OK when every enum field of `message` (nested and repeated ones too)
// holds a value of its type; else INVALID_ARGUMENT naming `where` + the
// field's path, the number and the type's values. What an offline reader of
// events (`arbiter adjudicate`) checks, where the byte bounds are the
// service's own.
absl::Status CheckEnums(const google::protobuf::Message& message, absl::string_view where);

// The names of `type`'s values, in order ("A, B, C"): what a refusal of an
// enum lists.
std::string ValueNames(const google::protobuf::EnumDescriptor& type);

// At most `limit` bytes of `text`, cut at a UTF-8 character boundary, with
// " … (cut)" after it when cut: how an answer carries a text that may quote
// stored values (VerifyGame's finding).
std::string CutText(absl::string_view text, size_t limit);

// At most kQuotedPrefix bytes of `value`, C-escaped, with "…" when cut:
// what a message may quote of a client's value.
std::string QuotedPrefix(absl::string_view value);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_FIELD_BOUNDS_H_
