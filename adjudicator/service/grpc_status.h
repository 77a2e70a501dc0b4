// The one bridge between absl::Status and grpc::Status. Both follow
// google.rpc.Code, so a conversion keeps the code and the message; what a
// refusal carries besides travels as google.rpc error details (ToGrpc).
#ifndef ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_

#include <cstddef>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace arbiter::service {

// The longest status message sent. A message travels in an HTTP/2 trailer,
// and one that quoted a client's 8,000-byte value came back as
// RESOURCE_EXHAUSTED about metadata (a 100,000-byte one hung the call):
// messages quote at most a prefix of a value (field_bounds.h), and this cuts
// whatever else would be longer.
inline constexpr size_t kMaxStatusMessageBytes = 1024;

// `message` with what a terminal or a log would act on written out: C0
// controls and DEL as C escapes ("\n", "\x1b"), and the bidirectional
// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) as
// "\u202e". Messages quote client values (a clause id, a page token, a
// webhook URL), and a status is printed by clients and their logs: a quoted
// "\n\x1b[31m..." once came back raw and forged a log line.
inline std::string Printable(absl::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(message[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == 0xe2 && i + 2 < message.size() &&
               ((static_cast<unsigned char>(message[i + 1]) == 0x80 &&
                 static_cast<unsigned char>(message[i + 2]) >= 0xaa &&
                 static_cast<unsigned char>(message[i + 2]) <= 0xae) ||
                (static_cast<unsigned char>(message[i + 1]) == 0x81 &&
                 static_cast<unsigned char>(message[i + 2]) >= 0xa6 &&
                 static_cast<unsigned char>(message[i + 2]) <= 0xa9))) {
      // U+2000 + the low 6 bits of the second byte << 6 + those of the third.
      const int code = 0x2000 + ((static_cast<unsigned char>(message[i + 1]) & 0x3f) << 6) +
                       (static_cast<unsigned char>(message[i + 2]) & 0x3f);
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// `s` as gRPC answers it: its code, and its message made Printable and cut
// to kMaxStatusMessageBytes. A refusal that carries a reason
// (adjudicator/engine/refusal_reason.h: those an arbiter meets at the board,
// and the start of a round's) also carries it as a google.rpc.Status in the error details (the
// `grpc-status-details-bin` trailer; proto/google/rpc): an ErrorInfo
// {reason, domain kErrorDomain, metadata: the facts the reason names}, so
// that a program acts on it, or words it in its own language, without
// parsing the English message.
//
// A refusal made by the authorization interceptor (a token, a rate, a cap
// on streams) ends the call before its request is read, through gRPC's
// cancellation, which carries a code and a message only: a rate's wait is
// in its message ("the next is allowed in 190 ms", rate_limited.h).
grpc::Status ToGrpc(const absl::Status& s);

// ErrorInfo.domain: the service's package.
inline constexpr absl::string_view kErrorDomain = "arbiter.v1";

inline absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
