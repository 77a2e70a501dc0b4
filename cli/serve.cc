// `arbiter serve [--db DIR] [--listen ADDR] [--checkpoint-every N]`: runs the
// arbiter.v1 service on an embedded SQLite ledger.
//
// The data directory is --db, else $ARBITER_DATA, else ./arbiter-data
// (created if absent; see ledger/ledger.h for its files). The address is
// --listen, else 127.0.0.1:50051; port 0 picks a free port. The bound address
// is printed on stdout as "listening on HOST:PORT" once the server accepts
// calls. SIGTERM or SIGINT shut it down gracefully: calls in flight finish
// (every acknowledged event is committed before it is acknowledged), watch
// streams end, and the ledger commits what is queued. Exit 0 after a clean
// shutdown, 2 on bad usage, 3 when the ledger cannot be opened or the
// address bound.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "adjudicator/service/server.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter serve [--db DIR] [--listen HOST:PORT] [--checkpoint-every N]\n"
    "  --db      the ledger directory (default $ARBITER_DATA, else ./arbiter-data)\n"
    "  --listen  the address to serve on (default 127.0.0.1:50051; port 0: any free port)\n"
    "  --tls-cert FILE --tls-key FILE  serve TLS (PEM); --tls-client-ca FILE: mutual TLS\n"
    "  --write-rate N --read-rate N    calls per second per caller (default 1000 and 2000;\n"
    "                                  0: no limit); a caller is a token, else a host\n"
    "  Tokens: `arbiter token`; without any, only loopback (see .github/SECURITY.md)\n";

}  // namespace

int RunServe(int argc, char** argv) {
  service::ServerOptions options;
  const char* env = std::getenv("ARBITER_DATA");
  options.data_dir = env != nullptr && *env != '\0' ? env : "arbiter-data";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "arbiter serve: unexpected argument '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    }
    if (arg == "--db") {
      options.data_dir = argv[++i];
    } else if (arg == "--listen") {
      options.listen = argv[++i];
    } else if (arg == "--tls-cert") {
      options.tls.cert_chain = argv[++i];
    } else if (arg == "--tls-key") {
      options.tls.private_key = argv[++i];
    } else if (arg == "--tls-client-ca") {
      options.tls.client_ca = argv[++i];
    } else if (arg == "--write-rate" || arg == "--read-rate") {
      double rate = 0;
      if (!absl::SimpleAtod(argv[++i], &rate) || rate < 0) {
        std::fprintf(stderr, "arbiter serve: %s needs a number of calls per second (0: no limit)\n",
                     arg.c_str());
        return 2;
      }
      double& limit = arg == "--write-rate" ? options.limits.writes_per_second
                                            : options.limits.reads_per_second;
      double& burst = arg == "--write-rate" ? options.limits.write_burst
                                            : options.limits.read_burst;
      limit = rate;
      burst = 2 * rate;
    } else if (arg == "--checkpoint-every") {
      if (!absl::SimpleAtoi(argv[++i], &options.checkpoint_every)) {
        std::fprintf(stderr, "arbiter serve: --checkpoint-every needs a number\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "arbiter serve: unexpected argument '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    }
  }

  // Block the shutdown signals in every thread (gRPC's included, which
  // inherit this mask) and wait for them here, so the shutdown runs in
  // ordinary code rather than in a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  absl::StatusOr<std::unique_ptr<service::Server>> server = service::Server::Start(options);
  if (!server.ok()) {
    std::fprintf(stderr, "arbiter serve: %s\n", std::string(server.status().message()).c_str());
    return 3;  // the data directory is held, unreadable, or the address is taken
  }
  std::printf("listening on %s (ledger in %s)\n", (*server)->address().c_str(),
              options.data_dir.c_str());
  std::fflush(stdout);

  int received = 0;
  sigwait(&signals, &received);
  std::fprintf(stderr, "arbiter serve: %s: shutting down\n", received == SIGINT ? "SIGINT" : "SIGTERM");
  (*server)->Shutdown();
  server->reset();
  std::fprintf(stderr, "arbiter serve: stopped\n");
  std::fflush(nullptr);
  // Everything durable is committed and closed; skip gRPC's global teardown,
  // which otherwise holds the exit for about 1.5 s while its threads wind down.
  std::_Exit(0);
}

}  // namespace arbiter::cli
