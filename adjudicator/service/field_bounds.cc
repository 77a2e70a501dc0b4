#include "adjudicator/service/field_bounds.h"

#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace arbiter::service {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Where a field is within a request: each step a field and, in a repeated
// one, its index (-1: none). Written out only for a refusal: a request
// within bounds (nearly every one) costs no string at all.
struct Step {
  const FieldDescriptor* field;
  int index;
};

std::string PathOf(const std::string& root, const std::vector<Step>& steps) {
  std::string path = root;
  for (const Step& step : steps) {
    absl::StrAppend(&path, path.empty() ? "" : ".", step.field->json_name());
    if (step.index >= 0) absl::StrAppend(&path, "[", step.index, "]");
  }
  return path;
}

absl::Status CheckString(const std::string& value, const std::string& root,
                         const std::vector<Step>& steps) {
  const size_t limit = StringLimit(steps.back().field->name());
  if (value.size() <= limit) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(PathOf(root, steps), ": ", value.size(),
                                                 " bytes, at most ", limit, " (begins ",
                                                 QuotedPrefix(value), ")"));
}

absl::Status CheckFields(const Message& m, const std::string& root, std::vector<Step>& steps) {
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const bool repeated = f->is_repeated();
    const int count = repeated ? r->FieldSize(m, f) : 1;
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      for (int i = 0; i < count; ++i) {
        std::string scratch;
        const std::string& v = repeated ? r->GetRepeatedStringReference(m, f, i, &scratch)
                                        : r->GetStringReference(m, f, &scratch);
        steps.push_back({f, repeated ? i : -1});
        if (absl::Status s = CheckString(v, root, steps); !s.ok()) return s;
        steps.pop_back();
      }
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      // A venue's audit bundle (SyncVenueGame) is a record the venue's
      // server wrote and signed, rulings' rule texts included: bounded as a
      // whole (venue_games.h), every byte of it checked against the venue's
      // signature or re-derived, not a client's strings.
      if (f->message_type()->full_name() == "arbiter.v1.AuditBundle") continue;
      for (int i = 0; i < count; ++i) {
        steps.push_back({f, repeated ? i : -1});
        if (absl::Status s = CheckFields(
                repeated ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), root, steps);
            !s.ok()) {
          return s;
        }
        steps.pop_back();
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFields(const Message& m, absl::string_view root) {
  std::vector<Step> steps;
  steps.reserve(8);
  return CheckFields(m, std::string(root), steps);
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
  if (absl::Status s = CheckFields(message, where); !s.ok()) return s;
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
