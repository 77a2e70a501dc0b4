// The one SHA-256 and the canonical bytes (proto/canonical): known digests,
// deterministic map order, unknown fields dropped, non-canonical bytes
// refused.
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/stubs/logging.h"
#include "gtest/gtest.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/canonical_encoding.h"
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
  // Each digest has its own state; a second thread must not see the first
  // one's.
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

TEST(ParseCanonical, ClearsTheMessageFirst) {
  v1::Event before;
  before.set_idempotency_key("old");
  before.mutable_pass();
  v1::Event event;
  event.mutable_move()->set_point("Q16");
  ASSERT_TRUE(ParseCanonicalInto(CanonicalBytes(event), &before).ok());
  EXPECT_EQ(before.SerializeAsString(), event.SerializeAsString()) << before.ShortDebugString();
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

// The one-pass check (canonical_encoding.h) against the re-encoding it
// stands in for: canonical bytes of events of every shape are told
// canonical by the walk alone, and each way bytes can parse to an event
// yet not be its canonical encoding is refused by both.
const google::protobuf::Descriptor* EventType() { return v1::Event::descriptor(); }

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

std::vector<v1::Event> CanonicalShapes() {
  std::vector<v1::Event> events(6);
  events[0].mutable_at()->set_seconds(1777626000);
  events[0].set_idempotency_key("k1");
  events[0].mutable_move()->set_color(v1::WHITE);
  events[0].mutable_move()->set_point("Q16");
  events[1].mutable_at()->set_seconds(-62135596800);  // a negative int64: ten bytes
  events[1].mutable_at()->set_nanos(5);
  events[1].mutable_pass();  // an empty message in a oneof: written, with presence
  v1::GameCreated* created = events[2].mutable_game_created();
  created->set_game_id("g");
  created->set_board_size(19);
  created->set_komi_stones(0);  // optional: a zero written is its presence
  created->set_live(true);
  created->set_table(4000000000u);  // a uint32 above 2^31
  created->mutable_black()->set_name("B");
  events[3].mutable_game_started()->add_absent(v1::BLACK);
  events[3].mutable_game_started()->add_absent(v1::WHITE);
  events[4].mutable_dead_stones()->add_points("A1");
  events[4].mutable_dead_stones()->add_points("");  // a repeated string: empty ones written
  events[4].mutable_dead_stones()->add_points("B2");
  events[5].mutable_count_recorded()->set_black_count(184.5);
  return events;
}

TEST(KnownCanonical, TellsCanonicalEventsOfEveryShape) {
  for (const v1::Event& event : CanonicalShapes()) {
    const std::string bytes = CanonicalBytes(event);
    EXPECT_TRUE(KnownCanonical(EventType(), bytes)) << event.ShortDebugString();
    EXPECT_TRUE(ParseCanonical<v1::Event>(bytes).ok()) << event.ShortDebugString();
  }
  EXPECT_TRUE(KnownCanonical(EventType(), "")) << "the empty event";
}

// Bytes that parse to an event whose canonical bytes are other bytes, one
// for each rule of the canonical encoding.
TEST(KnownCanonical, RefusesEachNonCanonicalForm) {
  const struct {
    const char* what;
    std::string bytes;
  } cases[] = {
      {"a field number the schema lacks", Bytes({0xb8, 0x3e, 0x07})},
      {"an unknown field inside a message", Bytes({0x6a, 0x03, 0xf8, 0x06, 0x01})},
      {"a known field under another wire type", Bytes({0x10, 0x05})},
      {"fields out of order", Bytes({0x12, 0x01, 'k', 0x0a, 0x02, 0x08, 0x3c})},
      {"a string field twice", Bytes({0x12, 0x01, 'a', 0x12, 0x01, 'b'})},
      {"a message field twice", Bytes({0x0a, 0x02, 0x08, 0x01, 0x0a, 0x02, 0x08, 0x02})},
      {"two members of a oneof", Bytes({0x6a, 0x00, 0x72, 0x00})},
      {"a default string written", Bytes({0x12, 0x00})},
      {"a default enum written", Bytes({0x6a, 0x02, 0x08, 0x00})},
      {"a default double written", Bytes({0xea, 0x02, 0x09, 0x09, 0, 0, 0, 0, 0, 0, 0, 0})},
      {"a value varint padded", Bytes({0x6a, 0x03, 0x08, 0x81, 0x00})},
      {"a tag varint padded", Bytes({0x92, 0x00, 0x01, 'k'})},
      {"a length varint padded", Bytes({0x12, 0x81, 0x00, 'k'})},
      {"a negative int32 in five bytes", Bytes({0x0a, 0x06, 0x10, 0xff, 0xff, 0xff, 0xff, 0x0f})},
      {"a bool other than 0 or 1", Bytes({0x52, 0x02, 0x58, 0x02})},
      {"a uint32 beyond 32 bits", Bytes({0x52, 0x06, 0x70, 0x81, 0x80, 0x80, 0x80, 0x10})},
      {"an empty packed list", Bytes({0x5a, 0x02, 0x0a, 0x00})},
      {"a packed list in two runs", Bytes({0x5a, 0x06, 0x0a, 0x01, 0x01, 0x0a, 0x01, 0x02})},
      {"a packed list unpacked", Bytes({0x5a, 0x04, 0x08, 0x01, 0x08, 0x02})},
  };
  for (const auto& c : cases) {
    v1::Event parsed;
    ASSERT_TRUE(parsed.ParseFromString(c.bytes)) << c.what << ": the case must parse";
    ASSERT_NE(CanonicalBytes(parsed), c.bytes) << c.what << ": the case must not be canonical";
    EXPECT_FALSE(KnownCanonical(EventType(), c.bytes)) << c.what;
    EXPECT_EQ(ParseCanonical<v1::Event>(c.bytes).status().code(), absl::StatusCode::kDataLoss)
        << c.what;
  }
}

// Soundness against the re-encoding, byte by byte: of every one-byte change
// to canonical events (each byte replaced by each value, dropped, or
// doubled), the walk tells canonical only bytes that re-encode to
// themselves.
TEST(KnownCanonical, AcceptsNoChangedBytesThatReEncodeOtherwise) {
  google::protobuf::LogSilencer quiet;  // the parser's complaint at each bad UTF-8 string
  int told = 0;
  for (const v1::Event& event : CanonicalShapes()) {
    const std::string canonical = CanonicalBytes(event);
    std::vector<std::string> changed;
    for (size_t i = 0; i < canonical.size(); ++i) {
      for (int b = 0; b < 256; ++b) {
        std::string s = canonical;
        s[i] = static_cast<char>(b);
        changed.push_back(std::move(s));
      }
      changed.push_back(std::string(canonical).erase(i, 1));
      changed.push_back(std::string(canonical).insert(i, 1, canonical[i]));
    }
    for (const std::string& bytes : changed) {
      // The walk is asked only of bytes that parse (a string's UTF-8 is
      // the parser's to check), as ParseCanonicalInto asks it.
      v1::Event parsed;
      if (!parsed.ParseFromString(bytes) || !KnownCanonical(EventType(), bytes)) continue;
      ++told;
      ASSERT_EQ(CanonicalBytes(parsed), bytes) << absl::CEscape(bytes);
    }
  }
  EXPECT_GT(told, 1000) << "canonical variants (other values) are told too";
}

}  // namespace
}  // namespace arbiter
