#include "tests/support/pg_cluster.h"

#include <netinet/in.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/postgres/pg.h"
#include "tests/support/files.h"
#include "tests/support/subprocess.h"

namespace arbiter::testing {
namespace {

std::string PgBin() {
  const char* env = getenv("ARBITER_PG_BIN");
  return env != nullptr && *env != '\0' ? env : "/usr/lib/postgresql/15/bin";
}

// A loopback port nobody listens on now.
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

}  // namespace

absl::Status PgCluster::Tool(const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  if (geteuid() == 0) argv = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  argv.push_back(PgBin() + "/" + tool);
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = Run(argv, RunOptions{.merge_stderr = true});
  if (r.exit != 0) {
    return absl::UnavailableError(absl::StrCat(tool, " exited ", r.exit, ": ", r.out, log()));
  }
  return absl::OkStatus();
}

bool PgCluster::Installed() {
  std::error_code ec;
  return std::filesystem::exists(PgBin() + "/initdb", ec) &&
         std::filesystem::exists(PgBin() + "/pg_ctl", ec);
}

absl::StatusOr<std::unique_ptr<PgCluster>> PgCluster::Start() {
  std::unique_ptr<PgCluster> c(new PgCluster);
  std::string name = (std::filesystem::temp_directory_path() / "arbiter-pg-XXXXXX").string();
  if (mkdtemp(name.data()) == nullptr) return absl::UnavailableError("cannot make a temp dir");
  c->dir_ = name;
  c->data_ = name + "/data";
  if (geteuid() == 0) {
    // The server runs as postgres, which must own its directory.
    passwd* pw = getpwnam("postgres");
    if (pw == nullptr) return absl::UnavailableError("running as root, and no user postgres");
    if (chown(name.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      return absl::UnavailableError(absl::StrCat("cannot chown ", name, " to postgres"));
    }
  }
  if (absl::Status s = c->Tool("initdb", {"-D", c->data_, "-A", "trust", "-U", "arbiter",
                                          "--no-sync", "-E", "UTF8", "--locale=C"});
      !s.ok()) {
    return s;
  }
  c->port_ = FreePort();
  if (absl::Status s = c->Restart(); !s.ok()) return s;
  return c;
}

absl::Status PgCluster::Restart() {
  absl::Status s = Tool(
      "pg_ctl", {"start", "-w", "-t", "60", "-D", data_, "-l", data_ + "/log", "-o",
                 absl::StrCat("-p ", port_, " -c listen_addresses=127.0.0.1 -k ", dir_,
                              " -c synchronous_commit=on -c fsync=on -c max_connections=200")});
  running_ = s.ok();
  return s;
}

absl::Status PgCluster::Stop(const std::string& mode) {
  absl::Status s = Tool("pg_ctl", {"stop", "-w", "-D", data_, "-m", mode});
  if (s.ok()) running_ = false;
  return s;
}

PgCluster::~PgCluster() {
  if (running_) (void)Stop("immediate");
  if (getenv("ARBITER_TEST_KEEP") != nullptr) {
    std::fprintf(stderr, "kept %s\n", dir_.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string PgCluster::log() const {
  return std::filesystem::exists(data_ + "/log") ? ReadFile(data_ + "/log") : "";
}

absl::StatusOr<std::string> PgCluster::NewDatabase() {
  const std::string base = absl::StrCat("postgresql://arbiter@127.0.0.1:", port_, "/");
  absl::StatusOr<ledger::PgConn> conn = ledger::PgConn::Connect(base + "postgres");
  if (!conn.ok()) return conn.status();
  const std::string name = absl::StrCat("ledger_", getpid(), "_", ++databases_);
  if (absl::Status s = conn->Run("CREATE DATABASE " + name); !s.ok()) return s;
  return base + name;
}

namespace {
PgCluster* shared_cluster = nullptr;
}  // namespace

PgCluster& SharedPgCluster() {
  static PgCluster* cluster = [] {
    absl::StatusOr<std::unique_ptr<PgCluster>> c = PgCluster::Start();
    if (!c.ok()) {
      std::fprintf(stderr, "cannot start a PostgreSQL cluster: %s\n",
                   std::string(c.status().message()).c_str());
      std::abort();
    }
    shared_cluster = c->release();
    // Stopped at exit, whatever the tests did.
    std::atexit([] { delete shared_cluster; });
    return shared_cluster;
  }();
  return *cluster;
}

}  // namespace arbiter::testing
