#include "proto/canonical/canonical_bytes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format.h"
#include "google/protobuf/wire_format_lite.h"

namespace arbiter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::internal::WireFormat;
using google::protobuf::internal::WireFormatLite;

std::string Deterministic(const google::protobuf::Message& message) {
  std::string out;
  bool ok;
  {
    google::protobuf::io::StringOutputStream raw(&out);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    ok = message.SerializeToCodedStream(&coded);
  }
  if (!ok) {
    std::fprintf(stderr, "cannot serialize %s of %zu bytes\n", message.GetTypeName().c_str(),
                 message.ByteSizeLong());
    std::abort();
  }
  return out;
}

// True when `message`'s deterministic encoding is exactly `bytes`. The sizes
// are compared first, and the encoding is written into a buffer the thread
// keeps: the audit checks every stored event this way, and a string made and
// freed for each was a measured part of its time.
bool EncodesAs(const google::protobuf::Message& message, absl::string_view bytes) {
  const size_t size = message.ByteSizeLong();
  if (size != bytes.size()) return false;
  thread_local std::string buffer;
  if (buffer.size() < size) buffer.resize(std::max<size_t>(size, 2 * buffer.size()));
  uint8_t* start = reinterpret_cast<uint8_t*>(buffer.data());
  // Deterministic, as Deterministic() writes (map entries by key).
  google::protobuf::io::EpsCopyOutputStream out(start, static_cast<int>(size),
                                                /*deterministic=*/true);
  uint8_t* end = message._InternalSerialize(start, &out);
  return end == start + size && std::memcmp(start, bytes.data(), size) == 0;
}

// True when `bytes`, which parse as a `type`, hold only fields `type` knows,
// each with a wire type its parser reads it with, and so do, recursively, the
// bytes of every message field: then the parsed message has no unknown
// fields anywhere. A walk of the bytes, with no allocation, in place of
// DiscardUnknownFields' walk of the message by reflection. False also where
// it cannot tell (a proto2 file, whose closed enums keep unknown values as
// unknown fields; groups): the caller then checks the slow way.
bool OnlyKnownFields(const Descriptor* type, const uint8_t* data, int size) {
  if (type->file()->syntax() != FileDescriptor::SYNTAX_PROTO3) return false;
  google::protobuf::io::CodedInputStream in(data, size);
  for (;;) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return in.CurrentPosition() == size;
    const FieldDescriptor* field = type->FindFieldByNumber(WireFormatLite::GetTagFieldNumber(tag));
    if (field == nullptr || field->type() == FieldDescriptor::TYPE_GROUP) return false;
    const WireFormatLite::WireType wire = WireFormatLite::GetTagWireType(tag);
    if (wire != WireFormat::WireTypeForFieldType(field->type()) &&
        !(field->is_packable() && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
      return false;
    }
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      continue;
    }
    uint32_t length;
    if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(size - in.CurrentPosition()) ||
        !OnlyKnownFields(field->message_type(), data + in.CurrentPosition(),
                         static_cast<int>(length)) ||
        !in.Skip(static_cast<int>(length))) {
      return false;
    }
  }
}

}  // namespace

std::string CanonicalBytes(const google::protobuf::Message& message) {
  std::unique_ptr<google::protobuf::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();
  return Deterministic(*copy);
}

absl::Status ParseCanonicalInto(absl::string_view bytes, google::protobuf::Message* message) {
  message->Clear();
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes do not parse"));
  }
  // What the schema means, re-encoded: other bytes exactly when `bytes`
  // carried unknown fields or were not the deterministic encoding. When the
  // bytes hold no unknown field the message holds none either, and needs
  // no discarding before it is re-encoded.
  if (!OnlyKnownFields(message->GetDescriptor(), reinterpret_cast<const uint8_t*>(bytes.data()),
                       static_cast<int>(bytes.size()))) {
    message->DiscardUnknownFields();
  }
  if (!EncodesAs(*message, bytes)) {
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes are not canonical"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter
