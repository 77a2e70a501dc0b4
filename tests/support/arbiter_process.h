// The built `arbiter` binary as a child of a test: `arbiter serve` on a free
// loopback port, and any other command run to completion.
#ifndef ARBITER_TESTS_SUPPORT_ARBITER_PROCESS_H_
#define ARBITER_TESTS_SUPPORT_ARBITER_PROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/subprocess.h"

namespace arbiter::testing {

// `arbiter serve --db DATA_DIR --listen 127.0.0.1:0`: port 0, so the kernel
// picks a free one. It is ready once it prints "listening on ADDR", which it
// does only after the server accepts calls; its stderr goes to
// DATA_DIR.serve.log.
class ServerProcess {
 public:
  // Starts the server with `flags` added; nullptr (with its log on stderr)
  // if it exits before saying where it listens.
  static std::unique_ptr<ServerProcess> Start(const std::string& data_dir,
                                              const std::vector<std::string>& flags = {});
  // `arbiter serve --db LEDGER_URI --state STATE_DIR`: one of the servers
  // of a shared PostgreSQL ledger; its stderr goes to STATE_DIR.serve.log.
  static std::unique_ptr<ServerProcess> StartShared(const std::string& ledger_uri,
                                                    const std::string& state_dir,
                                                    const std::vector<std::string>& flags = {});
  ~ServerProcess() { Stop(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const std::string& address() const { return address_; }  // host:port
  // With "--http" among the flags: the web console's host:port (else empty).
  const std::string& console_address() const { return console_address_; }
  pid_t pid() const { return pid_; }
  std::string log() const;  // what it wrote on stderr so far

  // Sends `signal` and waits: its exit status, or -1 if the signal killed
  // it. Stopping again returns the same status.
  int Stop(int signal = SIGTERM);

 private:
  ServerProcess() = default;
  // Runs `arbiter serve ARGS --listen 127.0.0.1:0`, its stderr to `log`.
  static std::unique_ptr<ServerProcess> Launch(std::vector<std::string> args,
                                               const std::string& log);
  pid_t pid_ = 0;
  int status_ = -1;
  std::string address_;
  std::string console_address_;
  std::string log_;
};

// `arbiter ARGS...` run to completion (see Run).
ProcessResult RunArbiter(const std::vector<std::string>& args, const RunOptions& options = {});

// `arbiter ARGS...` as a client: `input` on its stdin, $ARBITER_SERVER set
// to `server` (empty, so no default server, when not given), and `env` set
// besides (e.g. {"ARBITER_TOKEN", secret}).
ProcessResult RunCli(const std::vector<std::string>& args, const std::string& input = "",
                     const std::string& server = "",
                     const std::vector<std::pair<std::string, std::string>>& env = {});

// `arbiter token create --db DATA_DIR --role ROLE --name NAME` (an ARBITER
// for every game): the token's secret, empty (and a test failure noted by
// the caller's check) when the command fails.
std::string CreateToken(const std::string& data_dir, const std::string& role,
                        const std::string& name);

// A number field of /proc/PID/status ("Threads"; "VmRSS" in KiB); 0 when
// the process or the field is not there.
int64_t ProcStatusField(pid_t pid, const std::string& field);

// A field of /proc/PID/smaps_rollup ("Pss", "Rss", in KiB); 0 when the
// process or the field is not there.
int64_t ProcRollupField(pid_t pid, const std::string& field);

// User + system CPU time of process `pid` so far, in milliseconds
// (/proc/PID/stat); 0 when it cannot be read.
double ProcCpuMs(pid_t pid);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_ARBITER_PROCESS_H_
