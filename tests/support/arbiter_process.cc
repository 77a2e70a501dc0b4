#include "tests/support/arbiter_process.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter::testing {

std::unique_ptr<ServerProcess> ServerProcess::Start(const std::string& data_dir,
                                                    const std::vector<std::string>& flags) {
  std::vector<std::string> args = {"--db", data_dir};
  args.insert(args.end(), flags.begin(), flags.end());
  return Launch(std::move(args), data_dir + ".serve.log");
}

std::unique_ptr<ServerProcess> ServerProcess::StartShared(const std::string& ledger_uri,
                                                          const std::string& state_dir,
                                                          const std::vector<std::string>& flags) {
  std::vector<std::string> args = {"--db", ledger_uri, "--state", state_dir};
  args.insert(args.end(), flags.begin(), flags.end());
  return Launch(std::move(args), state_dir + ".serve.log");
}

std::unique_ptr<ServerProcess> ServerProcess::Launch(std::vector<std::string> flags,
                                                     const std::string& log) {
  std::unique_ptr<ServerProcess> p(new ServerProcess());
  p->log_ = log;
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return nullptr;
  const int err = open(p->log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  std::vector<std::string> args = {ArbiterBinary(), "serve", "--listen", "127.0.0.1:0"};
  args.insert(args.end(), flags.begin(), flags.end());
  p->pid_ = Spawn(args, {-1, out[1], err});
  close(out[1]);
  close(err);
  // The first stdout line names the bound address.
  FILE* f = fdopen(out[0], "r");
  char line[512];
  if (f == nullptr || std::fgets(line, sizeof line, f) == nullptr) {
    std::fprintf(stderr, "arbiter serve did not start: %s\n", p->log().c_str());
    if (f != nullptr) std::fclose(f);
    return nullptr;
  }
  const std::string text = line;
  const std::string prefix = "listening on ";
  if (text.rfind(prefix, 0) != 0) {
    std::fprintf(stderr, "arbiter serve said \"%s\": %s\n", text.c_str(), p->log().c_str());
    std::fclose(f);
    return nullptr;
  }
  p->address_ =
      text.substr(prefix.size(), text.find_first_of(" \n", prefix.size()) - prefix.size());
  // With --http, the next line names the console's: "console on http://ADDR/"
  // (https:// when it serves TLS).
  const bool console = std::find(flags.begin(), flags.end(), "--http") != flags.end();
  // (Lines such as "verifier key ..." may come before it.)
  for (int i = 0; console && p->console_address_.empty() && i < 4 &&
                  std::fgets(line, sizeof line, f) != nullptr;
       ++i) {
    const std::string c = line;
    for (const std::string console_prefix : {"console on http://", "console on https://"}) {
      if (c.rfind(console_prefix, 0) != 0) continue;
      p->console_address_ =
          c.substr(console_prefix.size(),
                   c.find_first_of("/\n", console_prefix.size()) - console_prefix.size());
    }
  }
  std::fclose(f);
  return p;
}

std::string ServerProcess::log() const { return ReadFile(log_); }

int ServerProcess::Stop(int signal) {
  if (pid_ <= 0) return status_;
  kill(pid_, signal);
  status_ = Wait(pid_);
  pid_ = 0;
  return status_;
}

ProcessResult RunArbiter(const std::vector<std::string>& args, const RunOptions& options) {
  std::vector<std::string> argv = {ArbiterBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, options);
}

std::string CreateToken(const std::string& data_dir, const std::string& role,
                        const std::string& name) {
  std::vector<std::string> args = {"token",  "create", "--role", role,
                                   "--name", name,     "--db",   data_dir};
  if (role == "ARBITER") args.insert(args.end(), {"--game", "*"});
  const ProcessResult r = RunArbiter(args);
  if (r.exit != 0) return "";
  return r.out.substr(0, r.out.find('\n'));
}

ProcessResult RunCli(const std::vector<std::string>& args, const std::string& input,
                     const std::string& server,
                     const std::vector<std::pair<std::string, std::string>>& env) {
  RunOptions options;
  options.input = input;
  options.env.set = {{"ARBITER_SERVER", server}};
  options.env.set.insert(options.env.set.end(), env.begin(), env.end());
  return RunArbiter(args, options);
}

namespace {

// A number field ("Name:   1234 kB") of /proc/PID/`file`; 0 when absent.
int64_t ProcFileField(pid_t pid, const char* file, const std::string& field) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/", file));
  const std::string prefix = field + ":";
  std::string line;
  int64_t n = 0;
  while (std::getline(in, line)) {
    if (!absl::StartsWith(line, prefix)) continue;
    std::string value(absl::StripAsciiWhitespace(line.substr(prefix.size())));
    value = value.substr(0, value.find(' '));  // "1234 kB"
    if (absl::SimpleAtoi(value, &n)) return n;
  }
  return 0;
}

}  // namespace

int64_t ProcStatusField(pid_t pid, const std::string& field) {
  return ProcFileField(pid, "status", field);
}

int64_t ProcRollupField(pid_t pid, const std::string& field) {
  return ProcFileField(pid, "smaps_rollup", field);
}

double ProcCpuMs(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 > stat.size()) return 0;
  // Fields after the command's closing parenthesis: state is field 3,
  // utime 14 and stime 15.
  const std::vector<std::string> f = absl::StrSplit(stat.substr(paren + 2), ' ');
  int64_t utime = 0, stime = 0;
  if (f.size() < 13 || !absl::SimpleAtoi(f[11], &utime) || !absl::SimpleAtoi(f[12], &stime)) {
    return 0;
  }
  return 1000.0 * static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace arbiter::testing
