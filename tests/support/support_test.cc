// The support library itself: child processes (exit status, streams,
// environment), temporary directories, files and JSON-lines games.
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

ProcessResult Shell(const std::string& script, const RunOptions& options = {}) {
  return testing::Run({"/bin/sh", "-c", script}, options);
}

TEST(RunTest, ExitStatusAndBothStreams) {
  const ProcessResult r = Shell("echo out; echo err >&2; exit 3");
  EXPECT_EQ(r.exit, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(RunTest, MergedStreamsInputAndSignals) {
  RunOptions merged;
  merged.merge_stderr = true;
  merged.input = "line one\nline two\n";
  const ProcessResult r = Shell("cat; echo err >&2", merged);
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(r.out, "line one\nline two\nerr\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(Shell("kill -9 $$").exit, -1);
  EXPECT_EQ(testing::Run({"/nonexistent/program"}).exit, 127);
}

TEST(RunTest, EnvironmentIsSetAndUnsetForTheChildOnly) {
  ASSERT_EQ(setenv("ARBITER_SUPPORT_TEST", "parent", 1), 0);
  RunOptions options;
  options.env.set = {{"ARBITER_SUPPORT_SET", "child"}};
  options.env.unset = {"ARBITER_SUPPORT_TEST"};
  EXPECT_EQ(Shell("echo ${ARBITER_SUPPORT_SET-none} ${ARBITER_SUPPORT_TEST-none}", options).out,
            "child none\n");
  EXPECT_EQ(Shell("echo ${ARBITER_SUPPORT_TEST-none}").out, "parent\n");
  EXPECT_STREQ(getenv("ARBITER_SUPPORT_TEST"), "parent");
  EXPECT_EQ(getenv("ARBITER_SUPPORT_SET"), nullptr);
}

TEST(TempDirTest, IsFreshAndRemovedWithItsFiles) {
  std::string path;
  {
    const TempDir dir("support-test");
    path = dir.path();
    EXPECT_TRUE(std::filesystem::is_directory(path));
    EXPECT_TRUE(std::filesystem::is_empty(path));
    WriteFile(dir.File("a.txt"), "bytes");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(FilesTest, WriteReadAndListSorted) {
  const TempDir dir("support-test");
  const std::string binary("a\0b\n", 4);
  WriteFile(dir.File("b.jsonl"), binary);
  WriteFile(dir.File("a.jsonl"), "");
  WriteFile(dir.File("c.txt"), "");
  WriteFile(dir.File(".hidden.jsonl"), "");
  EXPECT_EQ(ReadFile(dir.File("b.jsonl")), binary);
  const auto jsonl = FilesIn(dir.path(), ".jsonl");
  ASSERT_EQ(jsonl.size(), 2u);
  EXPECT_EQ(jsonl[0].filename(), "a.jsonl");
  EXPECT_EQ(jsonl[1].filename(), "b.jsonl");
  EXPECT_EQ(FilesIn(dir.path()).size(), 3u);
}

TEST(FilesTest, AMissingFileAbortsNamingIt) {
  EXPECT_DEATH(ReadFile("/nonexistent/file"), "cannot read /nonexistent/file");
}

TEST(EventLinesTest, ReadsTheScenariosAndNamesABadLine) {
  absl::StatusOr<std::vector<v1::Event>> events =
      ReadEventLines(TestDataPath("scenarios/public/phone-twice.jsonl"));
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_FALSE(events->empty());
  EXPECT_TRUE((*events)[0].has_game_created());

  const TempDir dir("support-test");
  WriteFile(dir.File("bad.jsonl"),
            "{\"at\": \"2026-05-01T09:00:00Z\", \"gameStarted\": {}}\n\n{\"teleport\": {}}\n");
  absl::StatusOr<std::vector<v1::Event>> bad = ReadEventLines(dir.File("bad.jsonl"));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "bad.jsonl:3: ")) << bad.status();
}

}  // namespace
}  // namespace arbiter::testing
