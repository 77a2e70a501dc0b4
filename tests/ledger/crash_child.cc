// The writer process that crash_test.cc kills with SIGKILL: it opens the
// ledger in DIR and appends from several threads as fast as it can, printing
// "position game revision key" on stdout after each acknowledgement, until
// it is killed. A PostgreSQL ledger (URI) takes the key's directory too.
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/ledger.h"
#include "tests/ledger/toy_judge.h"

int main(int argc, char** argv) {
  using namespace arbiter::ledger;
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: ledger_crash_child DIR|URI TAG [KEY_DIR]\n");
    return 2;
  }
  testing::ToyJudge judge;
  LedgerOptions o;
  o.dir = argv[1];
  if (argc == 4) o.key_dir = argv[3];
  o.judge = &judge;
  o.checkpoint_every = 64;
  auto ledger = Ledger::Open(o);
  if (!ledger.ok()) {
    std::fprintf(stderr, "%s\n", std::string(ledger.status().message()).c_str());
    return 3;
  }
  std::mutex out;
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t) {
    writers.emplace_back([&, t] {
      std::string game = absl::StrCat(argv[2], "-", t);
      for (uint64_t revision = 0;;) {
        std::string key = absl::StrCat(game, "-", revision + 1);
        arbiter::v1::Event e = revision == 0 ? testing::Created(game, key)
                               : t == 0 && revision % 50 == 49
                                   ? testing::Resign(arbiter::v1::BLACK, key)
                                   : testing::Pass(arbiter::v1::WHITE, key);
        auto r = (*ledger)->AppendAndWait(
            AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {e}));
        if (!r.ok()) {
          std::fprintf(stderr, "%s\n", std::string(r.status().message()).c_str());
          _exit(4);
        }
        ++revision;
        // One write(2) per line, so the parent never reads half a line from
        // a killed child.
        std::string line =
            absl::StrCat((*r)[0].position(), " ", game, " ", revision, " ", key, "\n");
        std::lock_guard<std::mutex> lock(out);
        if (write(STDOUT_FILENO, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
          _exit(5);
        }
        if (e.has_resign()) {  // the game is over: start another
          game += "+";
          revision = 0;
        }
      }
    });
  }
  for (auto& w : writers) w.join();
}
