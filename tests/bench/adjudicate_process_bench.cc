// Many games offline: the 30 SGF games of tests/data/sgf adjudicated by the
// real binary one process per game against all in one process, and the
// same for the pipeline `arbiter import-sgf | arbiter adjudicate --json -`.
// Also the cost of starting the binary at all (`arbiter --help`). Wall
// time: the work is in child processes. Prints the per-game figures and the
// ratio at the end (medians over repetitions). Run:
//   build/bin/adjudicate_process_bench --benchmark_repetitions=5
//     --benchmark_enable_random_interleaving=true
// ($ARBITER_BENCH_BIN runs another build of the binary, e.g. one linked
// another way, against the same games.)
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/subprocess.h"

namespace {

namespace fs = std::filesystem;

std::string Binary() {
  const char* other = std::getenv("ARBITER_BENCH_BIN");
  return other != nullptr && *other != '\0' ? other : arbiter::testing::ArbiterBinary();
}

// Spawns `arbiter ARGS...` with stdin from `in` and stdout to `out` (-1:
// /dev/null); the pid, or -1.
pid_t Spawn(const std::vector<std::string>& args, int in, int out) {
  std::vector<std::string> argv = {Binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  static const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  return arbiter::testing::Spawn(argv, {in, out >= 0 ? out : null, -1});
}

bool Succeeded(pid_t pid) { return pid > 0 && arbiter::testing::Wait(pid) == 0; }

bool Run(const std::vector<std::string>& args) { return Succeeded(Spawn(args, -1, -1)); }

// `arbiter import-sgf SGF... | arbiter adjudicate --json -`.
bool Pipeline(const std::vector<std::string>& sgf) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return false;  // no child keeps the other end open
  std::vector<std::string> import = {"import-sgf", "--date", "2026-05-01"};
  import.insert(import.end(), sgf.begin(), sgf.end());
  const pid_t writer = Spawn(import, -1, pipe_fds[1]);
  const pid_t reader = Spawn({"adjudicate", "--json", "-"}, pipe_fds[0], -1);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  const bool wrote = Succeeded(writer);
  return Succeeded(reader) && wrote;
}

std::vector<std::string> SgfRecords() {
  std::vector<std::string> out;
  for (const fs::path& p :
       arbiter::testing::FilesIn(arbiter::testing::TestDataPath("sgf"), ".sgf")) {
    out.push_back(p.string());
  }
  return out;
}

// Where EventFiles() wrote them, removed at exit; empty until then.
std::string& EventDir() {
  static auto* const dir = new std::string();
  return *dir;
}

// The SGF records as event files, converted once per process.
const std::vector<std::string>& EventFiles() {
  static const auto* const files = [] {
    auto* out = new std::vector<std::string>();
    std::string templ = (fs::temp_directory_path() / "adjudicate-bench-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) return out;
    EventDir() = templ;
    for (const std::string& sgf : SgfRecords()) {
      const std::string path = templ + "/" + fs::path(sgf).stem().string() + ".jsonl";
      const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      const bool ok = Succeeded(Spawn({"import-sgf", "--date", "2026-05-01", sgf}, -1, fd));
      close(fd);
      if (!ok) return out;
      out->push_back(path);
    }
    return out;
  }();
  return *files;
}

// Mean wall time per game of each run of each benchmark, for the summary
// (with --benchmark_repetitions, one per repetition).
std::map<std::string, std::vector<double>>& MsPerGame() {
  static auto* const results = new std::map<std::string, std::vector<double>>();
  return *results;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void Record(benchmark::State& state, const std::string& name, size_t games, absl::Duration total) {
  const double per_game = absl::ToDoubleMilliseconds(total) /
                          static_cast<double>(state.iterations()) / static_cast<double>(games);
  state.counters["ms_per_game"] = per_game;
  state.counters["games_per_s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsIterationInvariantRate);
  MsPerGame()[name].push_back(per_game);
}

void BM_AdjudicateOneProcessPerGame(benchmark::State& state) {
  const std::vector<std::string>& files = EventFiles();
  if (files.size() != 30) return state.SkipWithError("cannot convert the 30 SGF games");
  const absl::Time start = absl::Now();
  for (auto _ : state) {
    for (const std::string& f : files) {
      if (!Run({"adjudicate", "--json", f})) return state.SkipWithError("adjudicate failed");
    }
  }
  Record(state, "adjudicate FILE, a process per game", files.size(), absl::Now() - start);
}
BENCHMARK(BM_AdjudicateOneProcessPerGame)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AdjudicateAllInOneProcess(benchmark::State& state) {
  const std::vector<std::string>& files = EventFiles();
  if (files.size() != 30) return state.SkipWithError("cannot convert the 30 SGF games");
  std::vector<std::string> args = {"adjudicate", "--json"};
  args.insert(args.end(), files.begin(), files.end());
  const absl::Time start = absl::Now();
  for (auto _ : state) {
    if (!Run(args)) return state.SkipWithError("adjudicate failed");
  }
  Record(state, "adjudicate FILE..., one process", files.size(), absl::Now() - start);
}
BENCHMARK(BM_AdjudicateAllInOneProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PipelinePerGame(benchmark::State& state) {
  const std::vector<std::string> records = SgfRecords();
  const absl::Time start = absl::Now();
  for (auto _ : state) {
    for (const std::string& sgf : records) {
      if (!Pipeline({sgf})) return state.SkipWithError("import-sgf | adjudicate failed");
    }
  }
  Record(state, "import-sgf F | adjudicate -, per game", records.size(), absl::Now() - start);
}
BENCHMARK(BM_PipelinePerGame)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PipelineAllInOne(benchmark::State& state) {
  const std::vector<std::string> records = SgfRecords();
  const absl::Time start = absl::Now();
  for (auto _ : state) {
    if (!Pipeline(records)) return state.SkipWithError("import-sgf | adjudicate failed");
  }
  Record(state, "import-sgf F... | adjudicate -, once", records.size(), absl::Now() - start);
}
BENCHMARK(BM_PipelineAllInOne)->Unit(benchmark::kMillisecond)->UseRealTime();

// What one start of the binary costs before any work: loading its shared
// libraries, static initialisation, printing the usage.
void BM_StartHelp(benchmark::State& state) {
  for (auto _ : state) {
    if (!Run({"--help"})) return state.SkipWithError("arbiter --help failed");
  }
}
BENCHMARK(BM_StartHelp)->Unit(benchmark::kMillisecond)->UseRealTime();

// One start that loads the embedded rules (parse, validate, hash) and
// prints a hash.
void BM_StartLoadingRules(benchmark::State& state) {
  for (auto _ : state) {
    if (!Run({"rules", "hash", "cn-2002"})) return state.SkipWithError("arbiter rules hash failed");
  }
}
BENCHMARK(BM_StartLoadingRules)->Unit(benchmark::kMillisecond)->UseRealTime();

void PrintRatio(const std::string& per_game, const std::string& once) {
  auto a = MsPerGame().find(per_game), b = MsPerGame().find(once);
  if (a == MsPerGame().end() || b == MsPerGame().end()) return;
  const double separate = Median(a->second), together = Median(b->second);
  std::printf(
      "%-40s %8.2f ms/game (median of %zu)\n%-40s %8.2f ms/game (median of %zu)\n"
      "%-40s %8.1fx\n",
      a->first.c_str(), separate, a->second.size(), b->first.c_str(), together, b->second.size(),
      "ratio (per game / one process)", separate / together);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::printf("\n");
  PrintRatio("adjudicate FILE, a process per game", "adjudicate FILE..., one process");
  PrintRatio("import-sgf F | adjudicate -, per game", "import-sgf F... | adjudicate -, once");
  if (!EventDir().empty()) fs::remove_all(EventDir());
}
