// Replays the fuzz corpora and every crash input found so far through the
// fuzz entry points, in every build (gcc and clang, with or without
// sanitizers), so a fixed crash stays fixed. A broken promise aborts the
// test binary, naming the input (printed before each is run).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/fuzz/fuzz_targets.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter::fuzz {
namespace {

namespace fs = std::filesystem;
using Entry = void (*)(const uint8_t*, size_t);

std::vector<fs::path> Inputs(const std::string& target) {
  std::vector<fs::path> out;
  for (const char* kind : {"corpus", "regressions"}) {
    const std::string dir = testing::SourcePath(std::string("tests/fuzz/") + kind + "/" + target);
    if (!fs::is_directory(dir)) continue;
    for (const fs::path& f : testing::FilesIn(dir)) out.push_back(f);
  }
  return out;
}

void Replay(const std::string& target, Entry entry, size_t at_least) {
  const std::vector<fs::path> inputs = Inputs(target);
  EXPECT_GE(inputs.size(), at_least) << "the " << target << " corpus is missing";
  for (const fs::path& p : inputs) {
    const std::string bytes = testing::ReadFile(p.string());
    std::fprintf(stderr, "%s\n", p.c_str());  // names the input if it aborts
    entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
}

TEST(FuzzReplayTest, EventJson) { Replay("event_json", &EventJson, 5); }
TEST(FuzzReplayTest, Sgf) { Replay("sgf", &Sgf, 5); }
TEST(FuzzReplayTest, Fold) { Replay("fold", &Fold, 3); }
TEST(FuzzReplayTest, Bundle) { Replay("bundle", &Bundle, 1); }

}  // namespace
}  // namespace arbiter::fuzz
