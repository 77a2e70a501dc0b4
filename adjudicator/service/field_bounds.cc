#include "adjudicator/service/field_bounds.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace arbiter::service {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

absl::Status CheckString(const std::string& value, const FieldDescriptor& field,
                         const std::string& path) {
  const size_t limit = StringLimit(field.name());
  if (value.size() <= limit) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", value.size(), " bytes, at most ",
                                                 limit, " (begins ", QuotedPrefix(value), ")"));
}

absl::Status CheckFields(const Message& m, const std::string& path) {
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const std::string here = absl::StrCat(path, path.empty() ? "" : ".", f->json_name());
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(m, f); ++i) {
          std::string scratch;
          const std::string& v = r->GetRepeatedStringReference(m, f, i, &scratch);
          if (absl::Status s = CheckString(v, *f, absl::StrCat(here, "[", i, "]")); !s.ok()) {
            return s;
          }
        }
      } else {
        std::string scratch;
        if (absl::Status s = CheckString(r->GetStringReference(m, f, &scratch), *f, here);
            !s.ok()) {
          return s;
        }
      }
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      // A venue's audit bundle (SyncVenueGame) is a record the venue's
      // server wrote and signed, rulings' rule texts included: bounded as a
      // whole (venue_games.h), every byte of it checked against the venue's
      // signature or re-derived, not a client's strings.
      if (f->message_type()->full_name() == "arbiter.v1.AuditBundle") continue;
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(m, f); ++i) {
          if (absl::Status s =
                  CheckFields(r->GetRepeatedMessage(m, f, i), absl::StrCat(here, "[", i, "]"));
              !s.ok()) {
            return s;
          }
        }
      } else if (absl::Status s = CheckFields(r->GetMessage(m, f), here); !s.ok()) {
        return s;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

size_t StringLimit(absl::string_view field_name) {
  if (field_name == "idempotency_key" || field_name == "request_id" || field_name == "game_id" ||
      field_name == "tournament_id" || field_name == "page_token") {
    return kMaxKeyBytes;
  }
  if (field_name == "opengotha_xml") return kMaxFileBytes;
  if (field_name == "decision" || field_name == "grounds" || field_name == "note" ||
      field_name == "reason") {
    return kMaxTextBytes;
  }
  return kMaxNameBytes;
}

absl::Status CheckBounds(const Message& message, absl::string_view where, size_t max_bytes) {
  // Field by field first, so the refusal names the field that is too long.
  if (absl::Status s = CheckFields(message, std::string(where)); !s.ok()) return s;
  const size_t size = message.ByteSizeLong();
  if (size > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", size, " bytes, at most ", max_bytes, " per event"));
  }
  return absl::OkStatus();
}

absl::Status CheckRequest(const Message& message) { return CheckFields(message, ""); }

std::string CutText(absl::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return absl::StrCat(text.substr(0, cut), " … (cut)");
}

std::string QuotedPrefix(absl::string_view value) {
  const bool cut = value.size() > kQuotedPrefix;
  return absl::StrCat("\"", absl::CEscape(value.substr(0, kQuotedPrefix)), cut ? "\"…" : "\"");
}

}  // namespace arbiter::service
