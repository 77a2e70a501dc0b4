// The one id rule (proto/names/resource_name.h): what an id may hold, and
// what a refusal may quote of it.
#include "proto/names/resource_name.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

TEST(ResourceNameTest, DotSegmentsAreNotIds) {
  EXPECT_TRUE(IsValidId("round-1.board_2~b"));
  EXPECT_TRUE(IsValidId("..."));
  EXPECT_TRUE(IsValidId(".hidden"));
  for (const char* id : {".", ".."}) {
    SCOPED_TRACE(id);
    const absl::Status s = CheckId("game", id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(s.message(), "a path segment of its own")) << s;
  }
  absl::StatusOr<std::string> parsed = ParseResourceName("games", "games/..", "game");
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
}

// A refusal quotes 16 bytes at most, escaped: no control character, bidi
// override or half a character reaches the status a client prints.
TEST(ResourceNameTest, ARefusalQuotesSixteenEscapedBytesAtMost) {
  const std::string id = "\x1b[31mred\xe2\x80\xae" + std::string(40, 'x');
  const absl::Status s = CheckId("game", id);
  EXPECT_EQ(s.message(),
            "game id '\\x1b[31mred\\xe2\\x80\\xaexxxxx...': only letters, digits and -._~ are "
            "allowed");
  const absl::Status long_id = CheckId("game", std::string(200, 'g'));
  EXPECT_EQ(long_id.message(), "the game id 'gggggggggggggggg...' is longer than 128 characters");
}

}  // namespace
}  // namespace arbiter
