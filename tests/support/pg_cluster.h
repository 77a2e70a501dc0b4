// A throwaway PostgreSQL cluster for tests: initdb and pg_ctl (Debian's
// server, /usr/lib/postgresql/15/bin, or $ARBITER_PG_BIN) in a temporary
// directory, listening on a free loopback port, run as the `postgres` user
// when the test runs as root (the server refuses root). Its log is
// `log` inside the data folder. One per test binary is enough: each test
// takes a database of its own (NewDatabase).
#ifndef ARBITER_TESTS_SUPPORT_PG_CLUSTER_H_
#define ARBITER_TESTS_SUPPORT_PG_CLUSTER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::testing {

class PgCluster {
 public:
  // initdb and start; an error (with the server's log) if either fails.
  static absl::StatusOr<std::unique_ptr<PgCluster>> Start();
  // Whether the server's binaries (initdb, pg_ctl) are installed where
  // Start looks: a benchmark says so and skips its PostgreSQL part.
  static bool Installed();
  // Stops the server (immediate mode) and removes its directory.
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // A new, empty database, as a libpq URI: postgresql://arbiter@127.0.0.1:PORT/NAME.
  absl::StatusOr<std::string> NewDatabase();

  // pg_ctl stop -m MODE ("immediate": as a crash, no shutdown checkpoint)
  // and start again on the same port and data.
  absl::Status Stop(const std::string& mode);
  absl::Status Restart();

  int port() const { return port_; }
  std::string log() const;

 private:
  PgCluster() = default;
  // Runs pg_ctl or initdb (as postgres when root); its output on failure.
  absl::Status Tool(const std::string& tool, const std::vector<std::string>& args);

  std::string dir_;   // owns data/ and the sockets
  std::string data_;  // the cluster
  int port_ = 0;
  int databases_ = 0;
  bool running_ = false;
};

// The cluster of this test binary, started on first use and stopped at
// exit (also when a test fails); aborts the binary, with the reason, if it
// cannot start.
PgCluster& SharedPgCluster();

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_PG_CLUSTER_H_
