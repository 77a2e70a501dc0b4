#include "tests/support/subprocess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

extern char** environ;

namespace arbiter::testing {
namespace {

// The child's environment, built before fork: between fork and exec a child
// of a threaded test may only call async-signal-safe functions.
std::vector<std::string> ChildEnvironment(const Environment& env) {
  std::vector<std::string> out;
  auto named = [](const std::string& entry, const std::string& name) {
    return entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 &&
           entry[name.size()] == '=';
  };
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    bool dropped = std::any_of(env.unset.begin(), env.unset.end(),
                               [&](const std::string& n) { return named(entry, n); }) ||
                   std::any_of(env.set.begin(), env.set.end(),
                               [&](const auto& nv) { return named(entry, nv.first); });
    if (!dropped) out.push_back(entry);
  }
  for (const auto& [name, value] : env.set) out.push_back(name + "=" + value);
  return out;
}

[[noreturn]] void Die(const char* what, const std::string& program) {
  std::fprintf(stderr, "test support: %s %s: %s\n", what, program.c_str(), std::strerror(errno));
  std::abort();
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

pid_t Spawn(const std::vector<std::string>& argv, const ChildStreams& streams,
            const Environment& env) {
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = ChildEnvironment(env);
  std::vector<char*> arg_pointers = Pointers(args);
  std::vector<char*> env_pointers = Pointers(environment);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (streams.in >= 0) dup2(streams.in, 0);
  if (streams.out >= 0) dup2(streams.out, 1);
  if (streams.err >= 0) dup2(streams.err, 2);
  execve(arg_pointers[0], arg_pointers.data(), env_pointers.data());
  _exit(127);
}

int Wait(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ProcessResult Run(const std::vector<std::string>& argv, const RunOptions& options) {
  TempDir dir("arbiter-run");
  const std::string in_path = dir.File("in"), out_path = dir.File("out"),
                    err_path = dir.File("err");
  WriteFile(in_path, options.input);
  const int in = open(in_path.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err = options.merge_stderr
                      ? out
                      : open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (in < 0 || out < 0 || err < 0) Die("cannot open the streams of", argv[0]);
  const pid_t pid = Spawn(argv, {in, out, err}, options.env);
  close(in);
  close(out);
  if (!options.merge_stderr) close(err);
  if (pid < 0) Die("cannot fork for", argv[0]);
  ProcessResult result;
  result.exit = Wait(pid);
  result.out = ReadFile(out_path);
  if (!options.merge_stderr) result.err = ReadFile(err_path);
  return result;
}

}  // namespace arbiter::testing
