#include "adjudicator/service/console/bidi.h"

#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace arbiter::service::console {
namespace {

using google::protobuf::FieldDescriptor;

// The controls' UTF-8: E2 80 8E-8F, E2 80 AA-AE, E2 81 A6-A9.
bool IsBidiControl(absl::string_view s, size_t i) {
  if (i + 2 >= s.size() || static_cast<unsigned char>(s[i]) != 0xE2) return false;
  const auto b = static_cast<unsigned char>(s[i + 1]);
  const auto c = static_cast<unsigned char>(s[i + 2]);
  if (b == 0x80) return c == 0x8E || c == 0x8F || (c >= 0xAA && c <= 0xAE);
  if (b == 0x81) return c >= 0xA6 && c <= 0xA9;
  return false;
}

bool HasBidiControl(absl::string_view s) {
  for (size_t i = s.find('\xE2'); i != absl::string_view::npos; i = s.find('\xE2', i + 1)) {
    if (IsBidiControl(s, i)) return true;
  }
  return false;
}

}  // namespace

std::string StripBidiControls(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (IsBidiControl(text, i)) {
      i += 3;
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

void StripBidiControls(google::protobuf::Message* message) {
  const google::protobuf::Reflection* r = message->GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(*message, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->type() == FieldDescriptor::TYPE_STRING) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*message, f); ++i) {
          const std::string v = r->GetRepeatedString(*message, f, i);
          if (HasBidiControl(v)) r->SetRepeatedString(message, f, i, StripBidiControls(v));
        }
      } else {
        const std::string v = r->GetString(*message, f);
        if (HasBidiControl(v)) r->SetString(message, f, StripBidiControls(v));
      }
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*message, f); ++i) {
          StripBidiControls(r->MutableRepeatedMessage(message, f, i));
        }
      } else {
        StripBidiControls(r->MutableMessage(message, f));
      }
    }
  }
}

}  // namespace arbiter::service::console
