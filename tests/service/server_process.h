// A real `arbiter serve` for end-to-end tests: the built binary started as a
// child process on 127.0.0.1 with port 0 (the kernel picks a free port) and
// a temporary data directory; ready once it prints "listening on ADDR",
// which it does only after the server accepts calls. Also runs the CLI as a
// child and captures its exit code, stdout and stderr.
#ifndef ARBITER_TESTS_SERVICE_SERVER_PROCESS_H_
#define ARBITER_TESTS_SERVICE_SERVER_PROCESS_H_

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace arbiter::testing {

inline std::string ArbiterBinary() { return ARBITER_BIN; }

// A fresh directory under the system temp dir, removed by the caller.
inline std::string MakeTempDir(const std::string& prefix) {
  std::string templ = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  char* dir = mkdtemp(templ.data());
  return dir == nullptr ? "" : std::string(dir);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline pid_t Spawn(const std::vector<std::string>& args, int in_fd, int out_fd, int err_fd,
                   const std::vector<std::string>& env = {}) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  if (in_fd >= 0) dup2(in_fd, 0);
  if (out_fd >= 0) dup2(out_fd, 1);
  if (err_fd >= 0) dup2(err_fd, 2);
  for (const std::string& e : env) putenv(const_cast<char*>(e.c_str()));
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

class ServerProcess {
 public:
  // Starts the server on `data_dir`, with `flags` added to `arbiter serve`;
  // nullptr (with a message on stderr) if it does not come up within 20 s.
  static std::unique_ptr<ServerProcess> Start(const std::string& data_dir,
                                              const std::vector<std::string>& flags = {}) {
    auto p = std::unique_ptr<ServerProcess>(new ServerProcess());
    p->log_ = data_dir + ".serve.log";
    int out[2];
    if (pipe(out) != 0) return nullptr;
    int err = open(p->log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<std::string> args = {ArbiterBinary(), "serve", "--db", data_dir,
                                     "--listen", "127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    p->pid_ = Spawn(args, -1, out[1], err);
    close(out[1]);
    close(err);
    // The first stdout line names the bound address.
    FILE* f = fdopen(out[0], "r");
    char line[512];
    if (f == nullptr || std::fgets(line, sizeof line, f) == nullptr) {
      std::fprintf(stderr, "arbiter serve did not start: %s\n", ReadFile(p->log_).c_str());
      if (f != nullptr) std::fclose(f);
      return nullptr;
    }
    std::fclose(f);
    std::string text = line;
    const std::string prefix = "listening on ";
    if (text.rfind(prefix, 0) != 0) return nullptr;
    p->address_ = text.substr(prefix.size(), text.find(' ', prefix.size()) - prefix.size());
    return p;
  }

  ~ServerProcess() { Stop(); }

  const std::string& address() const { return address_; }
  pid_t pid() const { return pid_; }
  std::string log() const { return ReadFile(log_); }

  // Sends `signal` and waits; returns the exit status (or -1).
  int Stop(int signal = SIGTERM) {
    if (pid_ <= 0) return status_;
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return status_;
  }

 private:
  ServerProcess() = default;
  pid_t pid_ = 0;
  int status_ = -1;
  std::string address_;
  std::string log_;
};

struct CliResult {
  int exit = -1;
  std::string out;
  std::string err;
};

// Runs `arbiter ARGS...` with `input` on stdin and ARBITER_SERVER unset
// unless `server` is given; `extra_env` adds NAME=VALUE settings (ARBITER_TOKEN).
inline CliResult RunCli(const std::vector<std::string>& args, const std::string& input = "",
                        const std::string& server = "",
                        const std::vector<std::string>& extra_env = {}) {
  const std::string dir = MakeTempDir("arbiter-cli");
  const std::string in_path = dir + "/in", out_path = dir + "/out", err_path = dir + "/err";
  { std::ofstream(in_path) << input; }
  int in = open(in_path.c_str(), O_RDONLY);
  int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> argv = {ArbiterBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env;
  env.push_back(server.empty() ? "ARBITER_SERVER=" : "ARBITER_SERVER=" + server);
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  pid_t pid = Spawn(argv, in, out, err, env);
  close(in);
  close(out);
  close(err);
  int status = 0;
  waitpid(pid, &status, 0);
  CliResult r;
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SERVICE_SERVER_PROCESS_H_
