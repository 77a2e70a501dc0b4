// `arbiter token` from the command line: --ttl parsing, the expiry that
// `token list` shows, and bad durations refused without writing a token.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace {

struct CliRun {
  int exit = -1;
  std::string out;  // stdout and stderr together
};

CliRun Arbiter(const std::string& args) {
  const std::string command = std::string(ARBITER_BIN) + " token " + args + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  CliRun r;
  if (p == nullptr) return r;
  std::array<char, 512> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class TokenCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() /
            ("token-cli-test-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The `token list` line of the token named `name`.
  std::string Listed(const std::string& name) {
    const CliRun r = Arbiter("list --db " + dir_);
    EXPECT_EQ(r.exit, 0) << r.out;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      if (absl::StrContains(line, "  " + name + " ")) return std::string(line);
    }
    return "";
  }

  std::string dir_;
};

TEST_F(TokenCliTest, TtlIsStoredAndListed) {
  ASSERT_EQ(Arbiter("create --role SOFTWARE --name hour --ttl 1h --db " + dir_).exit, 0);
  ASSERT_EQ(Arbiter("create --role AUDITOR --name forever --ttl none --db " + dir_).exit, 0);
  const CliRun made = Arbiter("create --role SOFTWARE --name default --db " + dir_);
  ASSERT_EQ(made.exit, 0) << made.out;
  EXPECT_TRUE(absl::StrContains(made.out, "expires ")) << made.out;

  EXPECT_TRUE(absl::StrContains(Listed("hour"), " expires 20")) << Listed("hour");
  EXPECT_TRUE(absl::StrContains(Listed("forever"), " no expiry")) << Listed("forever");
  EXPECT_TRUE(absl::StrContains(Listed("default"), " expires 20")) << Listed("default");
}

TEST_F(TokenCliTest, BadTtlIsRefusedAndWritesNothing) {
  for (const char* ttl : {"soon", "0s", "-1h", "inf"}) {
    const CliRun r = Arbiter(std::string("create --role SOFTWARE --name x --ttl ") + ttl + " --db " + dir_);
    EXPECT_EQ(r.exit, 2) << ttl << ": " << r.out;
    EXPECT_TRUE(absl::StrContains(r.out, "--ttl")) << r.out;
  }
  EXPECT_EQ(Listed("x"), "") << "a refused token was written";
  EXPECT_EQ(Arbiter("list --ttl 1h --db " + dir_).exit, 2);
}

}  // namespace
