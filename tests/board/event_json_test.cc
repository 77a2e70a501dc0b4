// Every line of the shared scenarios reads as an arbiter.v1.Event in the
// standard proto3 JSON mapping (unknown fields are errors, not ignored) and
// survives a round trip through JSON unchanged.
#include <string>

#include "absl/strings/str_split.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

TEST(EventJsonTest, EveryScenarioLineRoundTrips) {
  int files = 0;
  int lines = 0;
  for (const auto& path : testing::FilesIn(testing::TestDataPath("scenarios/public"), ".jsonl")) {
    ++files;
    int number = 0;
    for (const absl::string_view piece : absl::StrSplit(testing::ReadFile(path.string()), '\n')) {
      const std::string line(piece);
      ++number;
      if (line.empty()) continue;
      SCOPED_TRACE(path.filename().string() + ":" + std::to_string(number));
      google::protobuf::util::JsonParseOptions strict;
      strict.ignore_unknown_fields = false;
      v1::Event event;
      ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &event, strict).ok()) << line;
      ASSERT_NE(event.kind_case(), v1::Event::KIND_NOT_SET) << line;
      std::string json;
      ASSERT_TRUE(google::protobuf::util::MessageToJsonString(event, &json).ok());
      v1::Event again;
      ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &again, strict).ok()) << json;
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(event, again)) << json;
      ++lines;
    }
  }
  EXPECT_GE(files, 6);
  EXPECT_GT(lines, 0);
}

TEST(EventJsonTest, UnknownFieldsAndKindsAreRefused) {
  v1::Event event;
  EXPECT_FALSE(
      google::protobuf::util::JsonStringToMessage(
          R"({"at": "2026-05-01T09:00:00Z", "move": {"color": "BLACK", "pont": "D4"}})", &event)
          .ok());
  EXPECT_FALSE(google::protobuf::util::JsonStringToMessage(
                   R"({"at": "2026-05-01T09:00:00Z", "teleport": {}})", &event)
                   .ok());
}

}  // namespace
}  // namespace arbiter
