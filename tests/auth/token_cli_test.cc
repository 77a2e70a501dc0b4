// `arbiter token` from the command line: --ttl parsing, the expiry that
// `token list` shows, and bad durations refused without writing a token.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::ProcessResult;

// `arbiter token ARGS...`, its stderr with its stdout.
ProcessResult ArbiterToken(std::vector<std::string> args) {
  args.insert(args.begin(), "token");
  return ::arbiter::testing::RunArbiter(args, {.merge_stderr = true});
}

class TokenCliTest : public ::testing::Test {
 protected:
  // The `token list` line of the token named `name`.
  std::string Listed(const std::string& name) {
    const ProcessResult r = ArbiterToken({"list", "--db", dir_.path()});
    EXPECT_EQ(r.exit, 0) << r.out;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      if (absl::StrContains(line, "  " + name + " ")) return std::string(line);
    }
    return "";
  }

  ::arbiter::testing::TempDir dir_{"token-cli-test"};
};

TEST_F(TokenCliTest, TtlIsStoredAndListed) {
  const std::string db = dir_.path();
  ASSERT_EQ(
      ArbiterToken({"create", "--role", "SOFTWARE", "--name", "hour", "--ttl", "1h", "--db", db})
          .exit,
      0);
  ASSERT_EQ(ArbiterToken(
                {"create", "--role", "AUDITOR", "--name", "forever", "--ttl", "none", "--db", db})
                .exit,
            0);
  const ProcessResult made =
      ArbiterToken({"create", "--role", "SOFTWARE", "--name", "default", "--db", db});
  ASSERT_EQ(made.exit, 0) << made.out;
  EXPECT_TRUE(absl::StrContains(made.out, "expires ")) << made.out;

  EXPECT_TRUE(absl::StrContains(Listed("hour"), " expires 20")) << Listed("hour");
  EXPECT_TRUE(absl::StrContains(Listed("forever"), " no expiry")) << Listed("forever");
  EXPECT_TRUE(absl::StrContains(Listed("default"), " expires 20")) << Listed("default");
}

TEST_F(TokenCliTest, BadTtlIsRefusedAndWritesNothing) {
  for (const char* ttl : {"soon", "0s", "-1h", "inf"}) {
    const ProcessResult r = ArbiterToken(
        {"create", "--role", "SOFTWARE", "--name", "x", "--ttl", ttl, "--db", dir_.path()});
    EXPECT_EQ(r.exit, 2) << ttl << ": " << r.out;
    EXPECT_TRUE(absl::StrContains(r.out, "--ttl")) << r.out;
  }
  EXPECT_EQ(Listed("x"), "") << "a refused token was written";
  EXPECT_EQ(ArbiterToken({"list", "--ttl", "1h", "--db", dir_.path()}).exit, 2);
}

}  // namespace
