// The one SHA-256 and the canonical bytes (proto/canonical): known digests,
// deterministic map order, unknown fields dropped, non-canonical bytes
// refused.
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter {
namespace {

TEST(Sha256, KnownDigests) {
  // FIPS 180-2, appendix B.1, and the digest of nothing.
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(ToHex(Sha256("abc")), Sha256Hex("abc"));
  EXPECT_EQ(AsBytes(Sha256("abc")).size(), 32u);
}

TEST(Sha256, PartsHashAsTheirConcatenation) {
  EXPECT_EQ(Sha256Of({"ab", "", "c"}), Sha256("abc"));
  EXPECT_NE(Sha256Of({"ab", "d"}), Sha256("abc"));
}

TEST(Sha256, EveryThreadGetsTheSameDigest) {
  // The digest context is per thread; a second thread must not see the
  // first one's state.
  const std::string here = Sha256Hex("arbiter");
  std::string there;
  std::thread t([&] { there = Sha256Hex("arbiter"); });
  t.join();
  EXPECT_EQ(there, here);
  EXPECT_EQ(Sha256Hex("arbiter"), here);
}

TEST(CanonicalBytes, MapOrderDoesNotMatter) {
  google::protobuf::Struct forward, backward;
  for (const char* k : {"a", "b", "c", "d", "e"}) {
    (*forward.mutable_fields())[k].set_number_value(1);
  }
  for (const char* k : {"e", "d", "c", "b", "a"}) {
    (*backward.mutable_fields())[k].set_number_value(1);
  }
  const std::string bytes = CanonicalBytes(forward);
  EXPECT_EQ(CanonicalBytes(backward), bytes);
  // Entries in key order.
  EXPECT_LT(bytes.find("\x0a\x01"
                       "a"),
            bytes.find("\x0a\x01"
                       "b"));
  EXPECT_LT(bytes.find("\x0a\x01"
                       "d"),
            bytes.find("\x0a\x01"
                       "e"));
}

TEST(CanonicalBytes, UnknownFieldsAreDropped) {
  v1::Event event;
  event.set_idempotency_key("k1");
  const std::string plain = CanonicalBytes(event);
  event.GetReflection()->MutableUnknownFields(&event)->AddVarint(9999, 7);
  ASSERT_NE(event.SerializeAsString(), plain);
  EXPECT_EQ(CanonicalBytes(event), plain);
  // The argument itself keeps them.
  EXPECT_EQ(event.GetReflection()->GetUnknownFields(event).field_count(), 1);
}

TEST(ParseCanonical, CanonicalBytesRoundTrip) {
  v1::Event event;
  event.mutable_at()->set_seconds(1777626000);
  event.set_idempotency_key("k1");
  event.mutable_move()->set_point("Q16");
  absl::StatusOr<v1::Event> parsed = ParseCanonical<v1::Event>(CanonicalBytes(event));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->SerializeAsString(), event.SerializeAsString());
}

TEST(ParseCanonical, RefusesBytesThatDoNotParse) {
  absl::StatusOr<v1::Event> parsed = ParseCanonical<v1::Event>("\xff\xff\xff");
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(parsed.status().message(), "arbiter.v1.Event bytes do not parse"))
      << parsed.status();
}

TEST(ParseCanonical, RefusesUnknownFields) {
  v1::Event event;
  event.set_idempotency_key("k1");
  event.GetReflection()->MutableUnknownFields(&event)->AddVarint(9999, 7);
  absl::StatusOr<v1::Event> parsed = ParseCanonical<v1::Event>(event.SerializeAsString());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(parsed.status().message(), "not canonical")) << parsed.status();
}

// The unknown fields re-encoding keeps where it found them, which only a
// look at every level tells from canonical bytes: inside a message field
// (the move), and a known field number with another wire type (which the
// parser keeps as unknown). Each is refused; the same event without them is
// canonical.
TEST(ParseCanonical, RefusesUnknownFieldsAtAnyDepthAndUnderAnotherWireType) {
  v1::Event event;
  event.mutable_at()->set_seconds(60);
  event.mutable_move()->set_color(v1::BLACK);
  event.mutable_move()->set_point("Q16");
  ASSERT_TRUE(ParseCanonical<v1::Event>(CanonicalBytes(event)).ok());

  v1::Event nested = event;
  nested.mutable_move()
      ->GetReflection()
      ->MutableUnknownFields(nested.mutable_move())
      ->AddVarint(99, 1);
  nested.mutable_at()->GetReflection()->MutableUnknownFields(nested.mutable_at())->AddFixed32(7, 1);
  std::string bytes;
  ASSERT_TRUE(nested.SerializeToString(&bytes));
  v1::Event reparsed;
  ASSERT_TRUE(reparsed.ParseFromString(bytes));
  ASSERT_EQ(reparsed.SerializeAsString(), bytes) << "re-encoding alone keeps them";
  absl::StatusOr<v1::Event> parsed = ParseCanonical<v1::Event>(bytes);
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(parsed.status().message(), "not canonical")) << parsed.status();

  // idempotency_key (field 2, a string) as a varint, after the known fields.
  v1::Event wire = event;
  wire.GetReflection()->MutableUnknownFields(&wire)->AddVarint(2, 5);
  ASSERT_TRUE(wire.SerializeToString(&bytes));
  ASSERT_TRUE(reparsed.ParseFromString(bytes));
  ASSERT_EQ(reparsed.SerializeAsString(), bytes);
  parsed = ParseCanonical<v1::Event>(bytes);
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss) << "a varint where a string is";

  // A repeated enum written unpacked: known, parsed, but not the canonical
  // (packed) encoding.
  v1::Event started;
  started.mutable_game_started()->add_absent(v1::BLACK);
  started.mutable_game_started()->add_absent(v1::WHITE);
  const std::string packed = CanonicalBytes(started);
  const std::string unpacked = std::string("\x5a\x04\x08\x01\x08\x02", 6);
  ASSERT_TRUE(reparsed.ParseFromString(unpacked));
  ASSERT_EQ(CanonicalBytes(reparsed), packed);
  EXPECT_TRUE(ParseCanonical<v1::Event>(packed).ok());
  EXPECT_EQ(ParseCanonical<v1::Event>(unpacked).status().code(), absl::StatusCode::kDataLoss);
}

TEST(ParseCanonical, RefusesFieldsOutOfOrder) {
  // idempotency_key (2) written before at (1): the same event, other bytes.
  v1::Event key, at;
  key.set_idempotency_key("k1");
  at.mutable_at()->set_seconds(60);
  const std::string reversed = CanonicalBytes(key) + CanonicalBytes(at);
  v1::Event both;
  ASSERT_TRUE(both.ParseFromString(reversed));
  ASSERT_NE(CanonicalBytes(both), reversed);
  absl::StatusOr<v1::Event> parsed = ParseCanonical<v1::Event>(reversed);
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(ParseCanonical<v1::Event>(CanonicalBytes(both)).ok());
}

}  // namespace
}  // namespace arbiter
