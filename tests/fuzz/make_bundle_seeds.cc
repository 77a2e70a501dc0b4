// Writes the seed inputs of the bundle fuzz target: each finished game of
// the shared scenarios recorded in a fresh ledger and exported as the
// binary AuditBundle `arbiter export` writes.
//
//   make_bundle_seeds SCENARIO_DIR OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "google/protobuf/util/json_util.h"
#include "adjudicator/service/adjudicator_judge.h"
#include "ledger/bundle.h"
#include "ledger/expected_revision.h"
#include "ledger/ledger.h"
#include "ledger/log_reader.h"

namespace fs = std::filesystem;
using namespace arbiter;          // NOLINT: a tool
using namespace arbiter::ledger;  // NOLINT

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_bundle_seeds SCENARIO_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("bundle-seeds-" + std::to_string(getpid()));
  service::AdjudicatorJudge judge;
  LedgerOptions o;
  o.dir = dir.string();
  o.judge = &judge;
  auto ledger = Ledger::Open(o);
  if (!ledger.ok()) {
    std::fprintf(stderr, "%s\n", ledger.status().ToString().c_str());
    return 1;
  }
  std::vector<std::string> games;
  for (const auto& f : fs::directory_iterator(argv[1])) {
    if (f.path().extension() != ".jsonl") continue;
    const std::string game = f.path().stem().string();
    std::ifstream in(f.path());
    std::string line;
    uint64_t revision = 0;
    while (std::getline(in, line)) {
      v1::Event e;
      if (line.empty() || !google::protobuf::util::JsonStringToMessage(line, &e).ok()) continue;
      if (e.has_game_created()) e.mutable_game_created()->set_game_id(game);
      if ((*ledger)->Append(game, ExpectedRevision::Exactly(revision), {e}).ok()) ++revision;
    }
    if (revision > 0) games.push_back(game);
  }
  ledger->reset();
  auto reader = LogReader::Open((dir / "ledger.db").string());
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
  fs::remove_all(dir);
  std::printf("%d bundles\n", written);
  return written > 0 ? 0 : 1;
}
