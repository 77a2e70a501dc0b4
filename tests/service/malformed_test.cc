// Malformed requests (issue 27.5): raw bytes that are no valid request, sent
// over a generic gRPC stub to every method that reads one request, callback
// methods (AppendEvents, the watches) and synchronous ones alike, of both
// services: each answers INVALID_ARGUMENT, never UNIMPLEMENTED (which tells a
// client the method does not exist) nor INTERNAL.
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/support/byte_buffer.h"
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using ::google::protobuf::Descriptor;
using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::MethodDescriptor;

// A protobuf varint.
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

std::string Tag(int field, int wire_type) { return Varint((field << 3) | wire_type); }

std::string LengthDelimited(int field, const std::string& bytes) {
  return Tag(field, 2) + Varint(bytes.size()) + bytes;
}

// A string field of `message` holding bytes that are not UTF-8, or empty
// when the message has no string field: for an AppendEventsRequest, an
// event whose idempotency key is not UTF-8.
std::string NotUtf8(const Descriptor& message) {
  const std::string bad = "key-\xff\xfe";
  if (message.full_name() == "arbiter.v1.AppendEventsRequest") {
    const FieldDescriptor* events = message.FindFieldByName("events");
    const FieldDescriptor* key = events->message_type()->FindFieldByName("idempotency_key");
    return LengthDelimited(events->number(), LengthDelimited(key->number(), bad));
  }
  for (int i = 0; i < message.field_count(); ++i) {
    const FieldDescriptor* f = message.field(i);
    if (f->type() == FieldDescriptor::TYPE_STRING) return LengthDelimited(f->number(), bad);
  }
  return "";
}

struct Malformed {
  std::string name;
  std::string bytes;
};

std::vector<Malformed> MalformedFor(const Descriptor& request) {
  std::vector<Malformed> out;
  // A length-delimited field announcing 5 bytes, holding 2.
  out.push_back({"truncated", Tag(1, 2) + Varint(5) + "ab"});
  // 100,000 nested groups of an unknown field, each closed: well formed, but
  // deeper than any parser goes.
  constexpr int kDepth = 100000;
  std::string nested;
  for (int i = 0; i < kDepth; ++i) nested += Tag(1000, 3);
  for (int i = 0; i < kDepth; ++i) nested += Tag(1000, 4);
  out.push_back({"nested-groups", nested});
  if (std::string s = NotUtf8(request); !s.empty()) out.push_back({"not-utf8", s});
  return out;
}

grpc::Status CallRaw(grpc::GenericStub& stub, const std::string& method, const std::string& bytes) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  grpc::Status status;
  absl::Notification done;
  stub.UnaryCall(&ctx, method, grpc::StubOptions(), &request, &response, [&](grpc::Status s) {
    status = std::move(s);
    done.Notify();
  });
  done.WaitForNotification();
  return status;
}

TEST(MalformedRequests, EveryMethodAnswersInvalidArgument) {
  grpc::GenericStub stub(
      grpc::CreateChannel(ServerEnvironment::address(), grpc::InsecureChannelCredentials()));
  int calls = 0;
  // Found through a message of each file, so that both are linked in.
  const std::vector<const google::protobuf::ServiceDescriptor*> services = {
      v1::AppendEventsRequest::descriptor()->file()->FindServiceByName("Arbiter"),
      v1::TournamentSettings::descriptor()->file()->FindServiceByName("TournamentService"),
  };
  for (const google::protobuf::ServiceDescriptor* d : services) {
    ASSERT_NE(d, nullptr);
    const std::string service = d->full_name();
    for (int m = 0; m < d->method_count(); ++m) {
      const MethodDescriptor* method = d->method(m);
      if (method->client_streaming()) continue;  // reads a stream: its end is no message
      const std::string path = "/" + service + "/" + method->name();
      for (const Malformed& bad : MalformedFor(*method->input_type())) {
        SCOPED_TRACE(path + " " + bad.name);
        const grpc::Status s = CallRaw(stub, path, bad.bytes);
        EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
        ++calls;
      }
    }
  }
  EXPECT_GT(calls, 40);
  // And the server goes on answering well-formed calls.
  v1::Game game;
  EXPECT_EQ(GetGame(*Stub(), "no-such-game", &game).error_code(), grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace arbiter::testing
