// Writes the seed inputs of the bundle fuzz target: each finished game of
// the shared scenarios recorded in a fresh ledger and exported as the
// binary AuditBundle `arbiter export` writes.
//
//   make_bundle_seeds SCENARIO_DIR OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "adjudicator/judge/adjudicator_judge.h"
#include "ledger/bundle.h"
#include "ledger/expected_revision.h"
#include "ledger/ledger.h"
#include "ledger/sqlite/log_reader.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using namespace arbiter;          // NOLINT: a tool
using namespace arbiter::ledger;  // NOLINT

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_bundle_seeds SCENARIO_DIR OUT_DIR\n");
    return 2;
  }
  const testing::TempDir dir("bundle-seeds");
  AdjudicatorJudge judge;
  LedgerOptions o;
  o.dir = dir.path();
  o.judge = &judge;
  auto ledger = Ledger::Open(o);
  if (!ledger.ok()) {
    std::fprintf(stderr, "%s\n", ledger.status().ToString().c_str());
    return 1;
  }
  std::vector<std::string> games;
  for (const fs::path& f : testing::FilesIn(argv[1], ".jsonl")) {
    const std::string game = f.stem().string();
    absl::StatusOr<std::vector<v1::Event>> events = testing::ReadEventLines(f.string());
    if (!events.ok()) {
      std::fprintf(stderr, "%s\n", events.status().ToString().c_str());
      return 1;
    }
    uint64_t revision = 0;
    for (v1::Event& e : *events) {
      if (e.has_game_created()) e.mutable_game_created()->set_game_id(game);
      if ((*ledger)
              ->AppendAndWait(AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {e}))
              .ok())
        ++revision;
    }
    if (revision > 0) games.push_back(game);
  }
  ledger->reset();
  auto reader = LogReader::Open(dir.File("ledger.db"));
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
    return 1;
  }
  int written = 0;
  for (const std::string& game : games) {
    auto bundle = ExportBundle(*reader, game);
    if (!bundle.ok()) continue;  // not finished, so not checkpointed
    std::ofstream out(fs::path(argv[2]) / (game + ".bundle"), std::ios::binary);
    bundle->SerializeToOstream(&out);
    ++written;
  }
  std::printf("%d bundles\n", written);
  return written > 0 ? 0 : 1;
}
