#include "proto/canonical/canonical_encoding.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace arbiter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

enum Wire : uint8_t { kVarint = 0, kFixed64 = 1, kLength = 2, kFixed32 = 5 };

// What a field's values must be, beyond their wire type.
enum class Value : uint8_t {
  kInt32,    // int32, enum: the 64-bit sign extension of 32 bits
  kUint32,   // uint32, sint32: within 32 bits
  kBool,     // 0 or 1
  kVarint,   // int64, uint64, sint64: any
  kFixed32,  // fixed32, sfixed32
  kFixed64,  // fixed64, sfixed64
  kFloat,    // float: -0.0 is not the default, and not told here
  kDouble,
  kBytes,  // string, bytes (the parser checks a string's UTF-8)
  kMessage,
};

struct MessageRules;

struct FieldRule {
  bool known = false;
  Wire wire = kVarint;  // the wire type it is written with (packed: kLength)
  Value value = Value::kVarint;
  bool repeated = false;
  bool packed = false;
  bool presence = false;  // written even when default
  int oneof = -1;         // its oneof's index, or -1
  const MessageRules* message = nullptr;
};

// A message type's rules, by field number; `tellable` false where this
// check cannot tell (the caller re-encodes).
struct MessageRules {
  bool tellable = true;
  std::vector<FieldRule> fields;  // by number
};

constexpr int kMostFieldNumber = 1024;  // above it, a type is not told here
constexpr int kMostOneofs = 64;         // one bit each
constexpr int kMostDepth = 100;         // protobuf's own recursion limit

Value ValueOf(const FieldDescriptor& f) {
  switch (f.type()) {
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_ENUM:
      return Value::kInt32;
    case FieldDescriptor::TYPE_UINT32:
    case FieldDescriptor::TYPE_SINT32:
      return Value::kUint32;
    case FieldDescriptor::TYPE_BOOL:
      return Value::kBool;
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
      return Value::kFixed32;
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
      return Value::kFixed64;
    case FieldDescriptor::TYPE_FLOAT:
      return Value::kFloat;
    case FieldDescriptor::TYPE_DOUBLE:
      return Value::kDouble;
    case FieldDescriptor::TYPE_STRING:
    case FieldDescriptor::TYPE_BYTES:
      return Value::kBytes;
    case FieldDescriptor::TYPE_MESSAGE:
      return Value::kMessage;
    default:  // int64, uint64, sint64 (groups are refused before)
      return Value::kVarint;
  }
}

Wire WireOf(Value v) {
  switch (v) {
    case Value::kFixed32:
    case Value::kFloat:
      return kFixed32;
    case Value::kFixed64:
    case Value::kDouble:
      return kFixed64;
    case Value::kBytes:
    case Value::kMessage:
      return kLength;
    default:
      return kVarint;
  }
}

// Every message type's rules, made once, on first use, and kept for the
// process (the descriptors they point at live as long).
class RuleBook {
 public:
  const MessageRules* For(const Descriptor* type) {
    absl::MutexLock lock(&mu_);
    return Make(type);
  }

 private:
  const MessageRules* Make(const Descriptor* type) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (auto it = rules_.find(type); it != rules_.end()) return it->second.get();
    // In the book before its fields, so a type that holds itself finds it.
    MessageRules* rules = (rules_[type] = std::make_unique<MessageRules>()).get();
    if (type->file()->syntax() != FileDescriptor::SYNTAX_PROTO3 ||
        type->oneof_decl_count() > kMostOneofs) {
      rules->tellable = false;
      return rules;
    }
    for (int i = 0; i < type->field_count(); ++i) {
      const FieldDescriptor& f = *type->field(i);
      if (f.is_map() || f.type() == FieldDescriptor::TYPE_GROUP || f.number() > kMostFieldNumber) {
        rules->tellable = false;
        return rules;
      }
      if (static_cast<int>(rules->fields.size()) <= f.number())
        rules->fields.resize(f.number() + 1);
      FieldRule& rule = rules->fields[f.number()];
      rule.known = true;
      rule.value = ValueOf(f);
      rule.repeated = f.is_repeated();
      rule.packed = f.is_packed();
      rule.wire = rule.packed ? kLength : WireOf(rule.value);
      rule.presence = f.has_presence();
      rule.oneof = f.containing_oneof() != nullptr ? f.containing_oneof()->index() : -1;
      if (rule.value == Value::kMessage) rule.message = Make(f.message_type());
    }
    return rules;
  }

  absl::Mutex mu_;
  absl::flat_hash_map<const Descriptor*, std::unique_ptr<MessageRules>> rules_ ABSL_GUARDED_BY(mu_);
};

// Reads a varint at `p` (< `end`) in its shortest form; false if it is
// cut short, longer than it needs to be, or beyond 64 bits. Inline, with
// the one-byte varint (most tags, lengths and values) first.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool ReadVarint(const uint8_t*& p, const uint8_t* end,
                                                    uint64_t* v) {
  if (p < end && *p < 0x80) {
    *v = *p++;
    return true;
  }
  uint64_t result = 0;
  for (int i = 0; i < 10 && p < end; ++i) {
    const uint8_t byte = *p++;
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      // A last byte of 0 (after the first) only pads; the tenth holds bit 63.
      if ((i > 0 && byte == 0) || (i == 9 && byte != 1)) return false;
      *v = result;
      return true;
    }
  }
  return false;
}

// A varint value as the serializer writes its field's type.
bool VarintFits(Value value, uint64_t v) {
  switch (value) {
    case Value::kInt32:
      return v == static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
    case Value::kUint32:
      return v <= 0xffffffffu;
    case Value::kBool:
      return v <= 1;
    default:
      return true;
  }
}

// A packed list's body: each element in canonical form, and at least one.
bool PackedCanonical(Value value, const uint8_t* p, const uint8_t* end) {
  if (p == end) return false;
  if (value == Value::kFixed32 || value == Value::kFloat) return (end - p) % 4 == 0;
  if (value == Value::kFixed64 || value == Value::kDouble) return (end - p) % 8 == 0;
  while (p < end) {
    uint64_t v;
    if (!ReadVarint(p, end, &v) || !VarintFits(value, v)) return false;
  }
  return true;
}

// A fixed-width value without presence: written only when not zero, and
// not told here when a floating-point negative zero.
bool FixedCanonical(const FieldRule& rule, const uint8_t* p, int width) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, width);
  if (rule.presence || rule.repeated) return true;
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  const bool floating = rule.value == Value::kFloat || rule.value == Value::kDouble;
  return bits != 0 && !(floating && bits == sign);
}

bool MessageCanonical(const MessageRules& rules, const uint8_t* p, const uint8_t* end, int depth);

// One field's value at `p`, which it moves past; false if not canonical.
bool ValueCanonical(const FieldRule& rule, const uint8_t*& p, const uint8_t* end, int depth) {
  uint64_t v = 0;
  switch (rule.wire) {
    case kVarint:
      return ReadVarint(p, end, &v) && VarintFits(rule.value, v) &&
             (v != 0 || rule.presence || rule.repeated);
    case kFixed32:
    case kFixed64: {
      const int width = rule.wire == kFixed32 ? 4 : 8;
      if (end - p < width || !FixedCanonical(rule, p, width)) return false;
      p += width;
      return true;
    }
    case kLength:
      break;
  }
  if (!ReadVarint(p, end, &v) || v > static_cast<uint64_t>(end - p)) return false;
  const uint8_t* body_end = p + v;
  const uint8_t* body = p;
  p = body_end;
  if (rule.packed) return PackedCanonical(rule.value, body, body_end);
  if (rule.value == Value::kMessage) {
    return MessageCanonical(*rule.message, body, body_end, depth + 1);
  }
  return v != 0 || rule.presence || rule.repeated;
}

bool MessageCanonical(const MessageRules& rules, const uint8_t* p, const uint8_t* end, int depth) {
  if (!rules.tellable || depth > kMostDepth) return false;
  uint64_t last = 0;    // the last field's number
  uint64_t oneofs = 0;  // a bit for each oneof with a member written
  while (p < end) {
    uint64_t tag;
    if (!ReadVarint(p, end, &tag) || tag > 0xffffffffu) return false;
    const uint64_t number = tag >> 3;
    if (number == 0 || number >= rules.fields.size() || !rules.fields[number].known) return false;
    const FieldRule& rule = rules.fields[number];
    if ((tag & 7) != rule.wire) return false;
    if (number < last) return false;
    if (number == last && !(rule.repeated && !rule.packed)) return false;
    if (number != last && rule.oneof >= 0) {
      const uint64_t bit = uint64_t{1} << rule.oneof;
      if ((oneofs & bit) != 0) return false;
      oneofs |= bit;
    }
    last = number;
    if (!ValueCanonical(rule, p, end, depth)) return false;
  }
  return true;
}

}  // namespace

bool KnownCanonical(const Descriptor* type, absl::string_view bytes) {
  static RuleBook* const book = new RuleBook;
  // The last type asked for, per thread: the audit asks for one type, over
  // and over, and need not take the book's lock each time. Initial-exec:
  // this library is linked into executables, and the default model's
  // __tls_get_addr call at each event was as costly as the walk of a move.
  ABSL_CONST_INIT thread_local const Descriptor* last_type ABSL_ATTRIBUTE_INITIAL_EXEC = nullptr;
  ABSL_CONST_INIT thread_local const MessageRules* last_rules ABSL_ATTRIBUTE_INITIAL_EXEC = nullptr;
  if (type != last_type) {
    last_rules = book->For(type);
    last_type = type;
  }
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  return MessageCanonical(*last_rules, p, p + bytes.size(), 0);
}

}  // namespace arbiter
