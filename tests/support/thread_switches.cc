#include "tests/support/thread_switches.h"

#include <dirent.h>

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace arbiter::testing {
namespace {

// The sum of the two *_ctxt_switches lines of a task's status; false when
// the task is gone.
bool ReadSwitches(const std::string& task_dir, uint64_t* switches) {
  std::ifstream status(task_dir + "/status");
  if (!status) return false;
  *switches = 0;
  int found = 0;
  for (std::string line; std::getline(status, line);) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "voluntary_ctxt_switches:") &&
        !absl::ConsumePrefix(&rest, "nonvoluntary_ctxt_switches:")) {
      continue;
    }
    uint64_t n = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &n)) return false;
    *switches += n;
    ++found;
  }
  return found == 2;
}

}  // namespace

std::map<std::string, uint64_t> ThreadSwitches(pid_t pid, const std::string& prefix) {
  std::map<std::string, uint64_t> threads;
  const std::string tasks = absl::StrCat("/proc/", pid, "/task");
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return threads;
  while (const dirent* d = readdir(dir)) {
    const std::string tid = d->d_name;
    if (tid == "." || tid == "..") continue;
    const std::string task_dir = absl::StrCat(tasks, "/", tid);
    std::ifstream comm(task_dir + "/comm");
    std::string name;
    if (!std::getline(comm, name) || !absl::StartsWith(name, prefix)) continue;
    uint64_t switches = 0;
    if (ReadSwitches(task_dir, &switches)) threads[absl::StrCat(tid, " ", name)] = switches;
  }
  closedir(dir);
  return threads;
}

std::map<std::string, uint64_t> SwitchesSince(const std::map<std::string, uint64_t>& before,
                                              const std::map<std::string, uint64_t>& after,
                                              uint64_t* total) {
  std::map<std::string, uint64_t> since;
  *total = 0;
  for (const auto& [thread, switches] : after) {
    auto it = before.find(thread);
    const uint64_t made = switches - (it == before.end() ? 0 : it->second);
    since[thread] = made;
    *total += made;
  }
  return since;
}

}  // namespace arbiter::testing
