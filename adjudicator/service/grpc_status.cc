#include "adjudicator/service/grpc_status.h"

#include <optional>

#include "adjudicator/engine/refusal_reason.h"
#include "google/protobuf/struct.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace arbiter::service {
namespace {

// The longest fact an ErrorInfo names: a fact may quote a client's words (a
// cancellation's cause: 1,024 bytes of free text, four times that once
// escaped), and the details travel, base64'd, in the trailer beside the
// message, under a client's 8 KiB bound on metadata.
constexpr size_t kMaxFactBytes = 256;

// `text` cut to at most `most` bytes at a UTF-8 boundary, then marked.
std::string Cut(std::string text, size_t most) {
  if (text.size() <= most) return text;
  size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  text += " … (cut)";
  return text;
}

// What `s` carries besides its code and message, as google.rpc.Status
// details: the ErrorInfo of a refusal's reason; none for most refusals.
google::rpc::Status DetailsOf(const absl::Status& s) {
  google::rpc::Status details;
  if (std::optional<google::protobuf::Struct> words = RefusalReasonOf(s); words.has_value()) {
    google::rpc::ErrorInfo info;
    info.set_domain(std::string(kErrorDomain));
    for (const auto& field : words->fields()) {
      if (field.first == "reason") {
        info.set_reason(field.second.string_value());
      } else {
        (*info.mutable_metadata())[field.first] =
            Cut(Printable(field.second.string_value()), kMaxFactBytes);
      }
    }
    details.add_details()->PackFrom(info);
  }
  return details;
}

}  // namespace

grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  std::string message = Cut(Printable(s.message()), kMaxStatusMessageBytes);
  const auto code = static_cast<grpc::StatusCode>(s.code());
  google::rpc::Status details = DetailsOf(s);
  if (details.details().empty()) return grpc::Status(code, std::move(message));
  details.set_code(static_cast<int32_t>(s.code()));
  details.set_message(message);
  return grpc::Status(code, std::move(message), details.SerializeAsString());
}

}  // namespace arbiter::service
