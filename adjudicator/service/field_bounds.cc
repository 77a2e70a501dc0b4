#include "adjudicator/service/field_bounds.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace arbiter::service {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::OneofDescriptor;
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

// One walk of a request: where it is, and whether it bounds the strings
// (CheckFields) or only checks the enums (CheckEnums).
struct Walk {
  std::string root;
  bool strings = true;
  std::vector<Step> steps;
};

absl::Status CheckString(const std::string& value, const Walk& walk) {
  // Within the least limit of all (nearly every value): no name to compare.
  static_assert(kMaxKeyBytes <= kMaxNameBytes && kMaxKeyBytes <= kMaxTextBytes &&
                kMaxKeyBytes <= kMaxFileBytes);
  if (!walk.strings || value.size() <= kMaxKeyBytes) return absl::OkStatus();
  const size_t limit = StringLimit(walk.steps.back().field->name());
  if (value.size() <= limit) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(PathOf(walk.root, walk.steps), ": ", value.size(),
                                                 " bytes, at most ", limit, " (begins ",
                                                 QuotedPrefix(value), ")"));
}

// What of a message type may hold a string (or an enum), in field-number
// order: its string and enum fields, its message fields (but an AuditBundle's, below), and its
// oneofs with such a member, a oneof in place of its first member. A walk
// then asks each message only for these, and a oneof for its one member set,
// where listing the set fields (Reflection::ListFields) tests every field of
// the type: an Event's oneof has dozens of kinds, one of them set.
struct Plan {
  struct Item {
    const FieldDescriptor* field = nullptr;  // or, if null,
    const OneofDescriptor* oneof = nullptr;
  };
  std::vector<Item> items;
};

bool ToCheck(const FieldDescriptor* f) {
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) return true;
  // An enum's number too: proto3 keeps a number its type does not name as
  // it came, and nothing downstream would refuse it (a venue of 55 would be
  // signed into the log as it is).
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) return true;
  // A venue's audit bundle (SyncVenueGame) is a record the venue's server
  // wrote and signed, rulings' rule texts included: bounded as a whole
  // (venue_games.h), every byte of it checked against the venue's signature
  // or re-derived, not a client's strings.
  return f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
         f->message_type()->full_name() != "arbiter.v1.AuditBundle";
}

Plan MakePlan(const Descriptor* d) {
  Plan plan;
  absl::flat_hash_set<const OneofDescriptor*> placed;
  std::vector<const FieldDescriptor*> fields;
  for (int i = 0; i < d->field_count(); ++i) fields.push_back(d->field(i));
  std::sort(fields.begin(), fields.end(), [](const FieldDescriptor* a, const FieldDescriptor* b) {
    return a->number() < b->number();
  });
  for (const FieldDescriptor* f : fields) {
    if (!ToCheck(f)) continue;
    if (const OneofDescriptor* o = f->real_containing_oneof(); o != nullptr) {
      if (placed.insert(o).second) plan.items.push_back({nullptr, o});
    } else {
      plan.items.push_back({f, nullptr});
    }
  }
  return plan;
}

// The plan of `d`, made once per type and kept (types are few and fixed).
const Plan& PlanOf(const Descriptor* d) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* plans = new absl::flat_hash_map<const Descriptor*, std::unique_ptr<Plan>>();
  {
    absl::ReaderMutexLock lock(&mu);
    if (auto it = plans->find(d); it != plans->end()) return *it->second;
  }
  auto plan = std::make_unique<Plan>(MakePlan(d));
  absl::MutexLock lock(&mu);
  return *plans->try_emplace(d, std::move(plan)).first->second;
}

absl::Status CheckEnum(const FieldDescriptor* f, int value, const Walk& walk) {
  if (f->enum_type()->FindValueByNumber(value) != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(PathOf(walk.root, walk.steps), ": ", value,
                                                 " is not a value of ", f->enum_type()->name(),
                                                 " (", ValueNames(*f->enum_type()), ")"));
}

absl::Status CheckFields(const Message& m, Walk& walk);

// The field `f` of `m`, when set: its strings, its enums and the messages
// within. (A singular enum of proto3 has no presence: its number is read
// whatever it is, 0 being always a value.)
absl::Status CheckField(const Message& m, const FieldDescriptor* f, Walk& walk) {
  const Reflection* r = m.GetReflection();
  const bool repeated = f->is_repeated();
  const bool is_enum = f->cpp_type() == FieldDescriptor::CPPTYPE_ENUM;
  const int count = repeated ? r->FieldSize(m, f) : (is_enum || r->HasField(m, f) ? 1 : 0);
  for (int i = 0; i < count; ++i) {
    walk.steps.push_back({f, repeated ? i : -1});
    if (is_enum) {
      const int v = repeated ? r->GetRepeatedEnumValue(m, f, i) : r->GetEnumValue(m, f);
      if (absl::Status s = CheckEnum(f, v, walk); !s.ok()) return s;
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      std::string scratch;
      const std::string& v = repeated ? r->GetRepeatedStringReference(m, f, i, &scratch)
                                      : r->GetStringReference(m, f, &scratch);
      if (absl::Status s = CheckString(v, walk); !s.ok()) return s;
    } else if (absl::Status s = CheckFields(
                   repeated ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), walk);
               !s.ok()) {
      return s;
    }
    walk.steps.pop_back();
  }
  return absl::OkStatus();
}

absl::Status CheckFields(const Message& m, Walk& walk) {
  for (const Plan::Item& item : PlanOf(m.GetDescriptor()).items) {
    const FieldDescriptor* f = item.field != nullptr
                                   ? item.field
                                   : m.GetReflection()->GetOneofFieldDescriptor(m, item.oneof);
    if (f == nullptr || !ToCheck(f)) continue;  // the oneof's set member holds none
    if (absl::Status s = CheckField(m, f, walk); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status CheckFields(const Message& m, absl::string_view root, bool strings) {
  Walk walk{std::string(root), strings, {}};
  walk.steps.reserve(8);
  return CheckFields(m, walk);
}

}  // namespace

std::string ValueNames(const google::protobuf::EnumDescriptor& type) {
  std::string names;
  for (int i = 0; i < type.value_count(); ++i) {
    absl::StrAppend(&names, i == 0 ? "" : ", ", type.value(i)->name());
  }
  return names;
}

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
  if (absl::Status s = CheckFields(message, where, /*strings=*/true); !s.ok()) return s;
  const size_t size = message.ByteSizeLong();
  if (size > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", size, " bytes, at most ", max_bytes, " per event"));
  }
  return absl::OkStatus();
}

absl::Status CheckRequest(const Message& message) {
  return CheckFields(message, "", /*strings=*/true);
}

absl::Status CheckEnums(const Message& message, absl::string_view where) {
  return CheckFields(message, where, /*strings=*/false);
}

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
