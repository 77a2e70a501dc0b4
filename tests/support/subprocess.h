// Child processes in tests: a program run to completion with its output
// captured, or started and then talked to through its file descriptors.
#ifndef ARBITER_TESTS_SUPPORT_SUBPROCESS_H_
#define ARBITER_TESTS_SUPPORT_SUBPROCESS_H_

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace arbiter::testing {

// Changes to the test's own environment for a child.
struct Environment {
  std::vector<std::pair<std::string, std::string>> set;  // NAME, value
  std::vector<std::string> unset;                        // NAMEs
};

// A child's standard streams: file descriptors of the parent, duplicated
// into the child, or -1 to inherit the parent's.
struct ChildStreams {
  int in = -1;
  int out = -1;
  int err = -1;
};

// Forks and executes argv[0] (a path: no PATH search) with `argv` and the
// environment changed by `env`; returns the child's pid, or -1 if fork
// failed. A child that cannot exec exits with status 127.
pid_t Spawn(const std::vector<std::string>& argv, const ChildStreams& streams = {},
            const Environment& env = {});

// Waits for `pid`: its exit status, or -1 if a signal ended it.
int Wait(pid_t pid);

// What a finished child did.
struct ProcessResult {
  int exit = -1;    // its exit status; -1 if it did not exit normally
  std::string out;  // its stdout (with its stderr, under merge_stderr)
  std::string err;  // its stderr
};

struct RunOptions {
  std::string input;          // its stdin
  bool merge_stderr = false;  // stderr into `out`, as with 2>&1
  Environment env;
};

// Runs `argv` to completion (as Spawn does) and returns what it did. Its
// streams go through files in a private temporary directory, so output of
// any size never blocks it.
ProcessResult Run(const std::vector<std::string>& argv, const RunOptions& options = {});

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_SUBPROCESS_H_
