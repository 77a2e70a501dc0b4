// `arbiter serve [--db DIR|URI] [--listen ADDR] [--http ADDR] [--checkpoint-every N]
// [--sign-within DURATION] [--max-skew DURATION] [--watch-stall DURATION]`: runs the arbiter.v1
// service on an embedded SQLite ledger, or on a PostgreSQL one that several servers share (--db
// postgresql://..., --state DIR), and with --http the web console (adjudicator/service/console)
// beside it.
//
// The data directory is --db, else $ARBITER_DATA, else ./arbiter-data
// (created if absent; see ledger/ledger.h for its files). The address is
// --listen, else 127.0.0.1:50051; port 0 picks a free port. The bound address
// is printed on stdout as "listening on HOST:PORT" once the server accepts
// calls, then "console on http://HOST:PORT/" with --http (https:// with --tls-cert, whose
// certificate the console serves too; plain HTTP only on loopback unless --http-insecure;
// --http-host NAME adds a name the console answers to, .github/SECURITY.md). SIGTERM or SIGINT shut
// it down gracefully: calls in flight finish (every acknowledged event is committed before it is
// acknowledged), watch streams end, and the ledger commits what is queued. Exit 0 after a clean
// shutdown, 2 on bad usage, 3 when the ledger cannot be opened or the
// address bound.
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/broadcast.h"
#include "adjudicator/service/console/file_budget.h"
#include "adjudicator/service/protobuf_log.h"
#include "adjudicator/service/server.h"
#include "adjudicator/service/witness_feed.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/ledger_path.h"
#include "cli/listen_address.h"
#include "ledger/signer.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kServeFlags[] = {
    {"db", "DIR|URI",
     "the ledger directory (default $ARBITER_DATA, else ./arbiter-data), or a PostgreSQL "
     "database shared by several servers, postgresql://USER@HOST:PORT/DB"},
    {"state", "DIR",
     "with a PostgreSQL --db: this server's own files, the signing key ledger.key (the same on "
     "every server) and witness keys; tokens, sessions, cosignatures and the log's origin are "
     "the database's (default $ARBITER_DATA, else ./arbiter-data)"},
    {"listen", "HOST:PORT", "the address to serve on (default 127.0.0.1:50051; port 0: any free)"},
    {"http", "HOST:PORT",
     "also serve the web console here (port 0: any free); HTTPS with --tls-cert, else loopback "
     "only unless --http-insecure"},
    {"http-host", "NAME",
     "a name the console answers to besides its address (the Host header; others get 421)", true},
    {"http-insecure", "",
     "let the console serve plain HTTP beyond loopback (tokens and cookies then cross the "
     "network in clear)"},
    {"http-feeds", "N",
     "pages following the console's live feed at once (default 8192, 1024 with --broadcast, "
     "less when the open-file limit is low: it must fit the limit's budget)"},
    {"http-feeds-per-caller", "N",
     "pages (and broadcast viewers) of one caller following at once (default 1024)"},
    {"broadcast", "",
     "serve the public broadcast on the console (/broadcast: rounds, boards, SGF, events), "
     "without sign-in; needs --http"},
    {"broadcast-delay", "DURATION",
     "the broadcast shows each game as it stood this long ago, 0s to 60m (default 0s)"},
    {"time-zone", "ZONE",
     "the hall's time zone, an IANA name such as Asia/Shanghai: the console's ruling slips and "
     "pages say their times in it, with the offset (default UTC; the ledger keeps UTC)"},
    {"trusted-proxy", "ADDR",
     "a proxy (an HTTP cache) in front of the console: the broadcast's viewer is the address its "
     "X-Forwarded-For names",
     true},
    {"checkpoint-every", "N", "sign a checkpoint every N events"},
    {"log-origin", "NAME",
     "the log's name in its C2SP checkpoints and verifier key (default: this host and the data "
     "folder); kept in the database by the first server, fixed once chosen"},
    {"sign-within", "DURATION",
     "sign a checkpoint at most this long after any write (default 1s; 0s: only at game ends and "
     "every N events)"},
    {"max-skew", "DURATION",
     "refuse events dated more than this ahead of the server's clock unless the request replays "
     "a record (default 10m; 0s: no guard)"},
    {"watch-stall", "DURATION",
     "cancel a watch stream whose client has read nothing for this long while a message waited "
     "for it, freeing its place (default 60s)"},
    {"watchers", "N", "concurrent watch streams on the server (default 8192)"},
    {"watchers-per-caller", "N", "concurrent watch streams per caller (default 1024)"},
    {"recorders", "N", "concurrent RecordEvents streams on the server (default 8192)"},
    {"recorders-per-caller", "N", "concurrent RecordEvents streams per caller (default 1024)"},
    {"tls-cert", "FILE", "serve TLS with this certificate chain (PEM); needs --tls-key"},
    {"tls-key", "FILE", "the TLS private key (PEM)"},
    {"tls-client-ca", "FILE", "mutual TLS: accept clients with certificates from these roots"},
    {"write-rate", "N", "writes per second per caller (default 1000; 0: no limit)"},
    {"read-rate", "N", "reads per second per caller (default 2000; 0: no limit)"},
    {"venue-key", "NAME=FILE",
     "take the games of the venue NAME, signed with the public key in FILE (its ledger.pub), "
     "from `arbiter sync --to` (VENUE tokens)",
     true},
    {"witness-key", "FILE",
     "also be a C2SP tlog-witness (POST /add-checkpoint on the console, needs --http) with this "
     "Ed25519 key (PEM; made if absent); its verifier key is written to FILE.vkey",
     false},
    {"witness", "URL=VKEY",
     "send each new checkpoint to the tlog-witness at URL (http://HOST:PORT[/PREFIX]), whose "
     "cosignatures VKEY checks; kept in the ledger's database",
     true},
    {"witness-name", "NAME", "the witness's key name (default HOSTNAME/witness)"},
    {"witness-for", "ORIGIN=VKEY",
     "with --witness-key: cosign the log ORIGIN, whose checkpoints VKEY (its ledger.vkey) signs",
     true},
    {"webhook-key", "FILE",
     "send the webhooks of `arbiter webhook add`, signed with this Ed25519 key (PEM; made if "
     "absent; the same on every server of a database); its whpk_ public key is written to "
     "FILE.pub (FILE's .key replaced)"},
    {"webhook-allow-private", "",
     "let webhooks go to loopback and private addresses (a venue's LAN); never to link-local or "
     "metadata ones"},
};
constexpr CommandSpec kServe = {
    .name = "serve",
    .summary = "run the arbiter.v1 gRPC service on an embedded ledger",
    .flags = kServeFlags,
    .notes =
        "A caller is a token, else a host. Tokens: `arbiter token`; without any, only\n"
        "loopback callers are served (see .github/SECURITY.md). Prints \"listening on\n"
        "HOST:PORT\" once calls are accepted; SIGTERM or SIGINT shut it down gracefully.\n"
        "Exit 3 when the ledger cannot be opened or the address bound.\n",
};

// --write-rate / --read-rate: calls per second, with a burst of twice that,
// and of at least one call: a slower rate lets a call through now and then,
// never none at all.
absl::Status SetRate(const Args& args, absl::string_view flag, double* limit, double* burst) {
  if (!args.Has(flag)) return absl::OkStatus();
  double rate = -1;
  if (absl::Status s = args.Number(flag, &rate); !s.ok()) return s;
  if (rate < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": a number of calls per second (0: no limit)"));
  }
  *limit = rate;
  *burst = rate == 0 ? 0 : std::max(1.0, 2 * rate);
  return absl::OkStatus();
}

// Each Read* step below takes one family of flags into the server's options;
// a step that refuses its flags returns the exit code, after its message.
using ReadStep = std::optional<int> (*)(const Args& args, service::ServerOptions* options);

// Where the ledger lives: a data folder, or a PostgreSQL database with this
// server's own files in --state.
std::optional<int> ReadStore(const Args& args, service::ServerOptions* options) {
  options->data_dir = DataDirectory(args);
  if (ledger::IsSharedStore(options->data_dir)) {
    options->ledger = options->data_dir;
    const char* env = std::getenv("ARBITER_DATA");
    options->data_dir =
        args.ValueOr("state", env != nullptr && *env != '\0' ? env : "arbiter-data");
  } else if (args.Has("state")) {
    return UsageError(kServe, "--state is for a PostgreSQL --db");
  }
  return std::nullopt;
}

// The venues whose games `arbiter sync --to` brings, each with its public
// key read now, so that a wrong file stops the server before it serves.
std::optional<int> ReadVenueKeys(const Args& args, service::ServerOptions* options) {
  for (const std::string& venue : args.Values("venue-key")) {
    const size_t eq = venue.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == venue.size()) {
      return UsageError(kServe, "--venue-key: NAME=FILE, the venue's name and its ledger.pub");
    }
    absl::StatusOr<std::string> der = ledger::ReadPublicKeyFile(venue.substr(eq + 1));
    if (!der.ok()) {
      return Complain("serve", absl::StrCat("--venue-key ", venue, ": ", der.status().message()),
                      kExitBadInput);
    }
    if (!options->venue_keys.emplace(venue.substr(0, eq), *der).second) {
      return UsageError(kServe,
                        absl::StrCat("--venue-key: venue '", venue.substr(0, eq), "' given twice"));
    }
  }
  return std::nullopt;
}

// The log's name, and the server as a witness of other logs.
std::optional<int> ReadWitnessKey(const Args& args, service::ServerOptions* options) {
  if (auto v = args.Value("log-origin")) options->log_origin = *v;
  if (auto v = args.Value("witness-key")) options->witness.key_file = *v;
  if (auto v = args.Value("witness-name")) options->witness.name = *v;
  for (const std::string& log : args.Values("witness-for")) {
    const size_t eq = log.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == log.size()) {
      return UsageError(kServe, "--witness-for: ORIGIN=VKEY, a log's origin and verifier key");
    }
    options->witness.logs.emplace_back(log.substr(0, eq), log.substr(eq + 1));
  }
  if (options->witness.key_file.empty() && (args.Has("witness-for") || args.Has("witness-name"))) {
    return UsageError(kServe, "--witness-for and --witness-name need --witness-key FILE");
  }
  return std::nullopt;
}

// Where the server's commits go out: webhooks and this log's own witnesses.
std::optional<int> ReadOutbound(const Args& args, service::ServerOptions* options) {
  options->witnesses = args.Values("witness");
  options->webhook_key = args.ValueOr("webhook-key", "");
  options->webhook_allow_private = args.Has("webhook-allow-private");
  if (options->webhook_key.empty() && options->webhook_allow_private) {
    return UsageError(kServe, "--webhook-allow-private needs --webhook-key FILE");
  }
  if (absl::StatusOr<std::vector<service::WitnessFeed::Target>> targets =
          service::WitnessFeed::ParseTargets(options->witnesses);
      !targets.ok()) {
    return UsageError(kServe, targets.status().message());
  }
  return std::nullopt;
}

// The addresses served on and the TLS that guards them.
std::optional<int> ReadAddresses(const Args& args, service::ServerOptions* options) {
  if (auto v = args.Value("listen")) options->listen = *v;
  if (auto v = args.Value("http")) options->http_listen = *v;
  options->http_hosts = args.Values("http-host");
  options->http_insecure = args.Has("http-insecure");
  for (const char* flag : {"listen", "http"}) {
    if (auto v = args.Value(flag)) {
      if (absl::Status s = CheckListenAddress(flag, *v); !s.ok())
        return UsageError(kServe, s.message());
    }
  }
  if (auto v = args.Value("time-zone")) {
    absl::StatusOr<service::console::VenueTime> zone = service::console::VenueTime::Load(*v);
    if (!zone.ok())
      return UsageError(kServe, absl::StrCat("--time-zone: ", zone.status().message()));
    if (options->http_listen.empty()) {
      return UsageError(kServe, "--time-zone: the times it sets are the console's; give --http");
    }
    options->venue_time = *std::move(zone);
  }
  if (auto v = args.Value("tls-cert")) options->tls.cert_chain = *v;
  if (auto v = args.Value("tls-key")) options->tls.private_key = *v;
  if (auto v = args.Value("tls-client-ca")) options->tls.client_ca = *v;
  return std::nullopt;
}

// The bounds on what callers may hold or send (rates, streams, feeds), and
// how often a checkpoint is signed.
std::optional<int> ReadLimits(const Args& args, service::ServerOptions* options) {
  service::AuthLimits& limits = options->limits;
  for (const absl::Status& s :
       {SetRate(args, "write-rate", &limits.writes_per_second, &limits.write_burst),
        SetRate(args, "read-rate", &limits.reads_per_second, &limits.read_burst),
        args.Number("checkpoint-every", &options->checkpoint_every),
        args.Number("watchers", &limits.watchers_in_all),
        args.Number("watchers-per-caller", &limits.watchers_per_caller),
        args.Number("recorders", &limits.recorders_in_all),
        args.Number("recorders-per-caller", &limits.recorders_per_caller),
        args.Number("http-feeds", &options->http_feeds.in_all),
        args.Number("http-feeds-per-caller", &options->http_feeds.per_caller)}) {
    if (!s.ok()) return UsageError(kServe, s.message());
  }
  if (limits.watchers_in_all < 1 || limits.watchers_per_caller < 1) {
    return UsageError(kServe, "--watchers, --watchers-per-caller: at least 1");
  }
  if (limits.recorders_in_all < 1 || limits.recorders_per_caller < 1) {
    return UsageError(kServe, "--recorders, --recorders-per-caller: at least 1");
  }
  if (options->http_feeds.in_all < 1 || options->http_feeds.per_caller < 1) {
    return UsageError(kServe, "--http-feeds, --http-feeds-per-caller: at least 1");
  }
  return std::nullopt;
}

// The public broadcast on the console, its delay and the proxies in front.
std::optional<int> ReadBroadcast(const Args& args, service::ServerOptions* options) {
  options->broadcast = args.Has("broadcast");
  if (auto v = args.Value("broadcast-delay")) {
    absl::StatusOr<absl::Duration> delay = service::console::ParseBroadcastDelay(*v);
    if (!delay.ok()) return UsageError(kServe, delay.status().message());
    options->broadcast_delay = *delay;
  }
  options->trusted_proxies = args.Values("trusted-proxy");
  for (const std::string& proxy : options->trusted_proxies) {
    in6_addr address;
    if (inet_pton(AF_INET, proxy.c_str(), &address) != 1 &&
        inet_pton(AF_INET6, proxy.c_str(), &address) != 1) {
      return UsageError(kServe, absl::StrCat("--trusted-proxy: an IP address (as the proxy "
                                             "connects from), not '",
                                             proxy.substr(0, 64), "'"));
    }
  }
  if (!options->broadcast && (args.Has("broadcast-delay") || args.Has("trusted-proxy"))) {
    return UsageError(kServe, "--broadcast-delay and --trusted-proxy need --broadcast");
  }
  if (options->broadcast && options->http_listen.empty()) {
    return UsageError(kServe, "--broadcast: the broadcast is served on the console; give --http");
  }
  return std::nullopt;
}

// The console's caps drawn from the open-file limit (file_budget.h), once
// --http-feeds and --broadcast are read.
std::optional<int> PlanOpenFiles(const Args& args, service::ServerOptions* options) {
  if (options->http_listen.empty()) return std::nullopt;
  absl::StatusOr<service::console::FileBudget> budget =
      service::console::PlanFiles(service::console::RaiseOpenFileLimit(), options->broadcast,
                                  args.Has("http-feeds") ? options->http_feeds.in_all : 0);
  if (!budget.ok()) return UsageError(kServe, budget.status().message());
  options->http_feeds.in_all = budget->feeds;
  options->http_connections = budget->connections;
  if (options->broadcast) options->broadcast_viewers = budget->viewers;
  return std::nullopt;
}

// The server's clocks: the skew it accepts, how long a watch may stall,
// and how soon a write is under a signed checkpoint.
std::optional<int> ReadDurations(const Args& args, service::ServerOptions* options) {
  if (auto v = args.Value("max-skew")) {
    if (!absl::ParseDuration(*v, &options->max_skew) || options->max_skew < absl::ZeroDuration() ||
        options->max_skew == absl::InfiniteDuration()) {
      return UsageError(kServe, "--max-skew: a duration such as 10m or 30s (0s: no guard)");
    }
    if (options->max_skew == absl::ZeroDuration()) options->max_skew = absl::InfiniteDuration();
  }
  if (auto v = args.Value("watch-stall")) {
    if (!absl::ParseDuration(*v, &options->watch_stall) ||
        options->watch_stall <= absl::ZeroDuration() ||
        options->watch_stall == absl::InfiniteDuration()) {
      return UsageError(kServe, "--watch-stall: a duration such as 60s or 500ms, more than 0");
    }
  }
  if (auto v = args.Value("sign-within")) {
    if (!absl::ParseDuration(*v, &options->sign_within) ||
        options->sign_within < absl::ZeroDuration() ||
        options->sign_within == absl::InfiniteDuration()) {
      return UsageError(kServe, "--sign-within: a duration such as 1s or 500ms (0s: no bound)");
    }
  }
  return std::nullopt;
}

// The lines scripts and tests read once calls are accepted: the addresses
// on stdout first, then the keys.
void AnnounceServer(const service::Server& server, const service::ServerOptions& options) {
  std::printf("listening on %s (ledger in %s)\n", server.address().c_str(),
              options.ledger.empty() ? options.data_dir.c_str() : options.ledger.c_str());
  if (!server.console_address().empty()) {
    std::printf("console on %s://%s/\n", options.tls.cert_chain.empty() ? "http" : "https",
                server.console_address().c_str());
  }
  // After the lines above, which scripts and tests read first.
  std::printf("verifier key %s (ledger.vkey)\n", server.ledger()->identity().VerifierKey().c_str());
  if (const std::string vkey = server.witness_vkey(); !vkey.empty()) {
    // On stderr, and beside the key: stdout's first lines are the addresses.
    const std::string file = options.witness.key_file + ".vkey";
    if (absl::Status s = WriteFileAtomically(file, vkey + "\n"); !s.ok()) {
      std::fprintf(stderr, "arbiter serve: %s\n", std::string(s.message()).c_str());
    }
    std::fprintf(stderr, "arbiter serve: witness %s (%s)\n", vkey.c_str(), file.c_str());
  }
  std::fflush(stdout);
}

// Runs the server until SIGINT or SIGTERM, then shuts it down gracefully.
int ServeUntilSignalled(const service::ServerOptions& options) {
  // Block the shutdown signals in every thread (gRPC's included, which
  // inherit this mask) and wait for them here, so the shutdown runs in
  // ordinary code rather than in a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  service::TurnOffDeadlockDetection();
  absl::StatusOr<std::unique_ptr<service::Server>> server = service::Server::Start(options);
  if (!server.ok()) {
    // The data directory is held, unreadable, or the address is taken.
    return Complain("serve", server.status().message(), kExitUnavailable);
  }
  AnnounceServer(**server, options);

  int received = 0;
  sigwait(&signals, &received);
  std::fprintf(stderr, "arbiter serve: %s: shutting down\n",
               received == SIGINT ? "SIGINT" : "SIGTERM");
  (*server)->Shutdown();
  server->reset();
  std::fprintf(stderr, "arbiter serve: stopped\n");
  std::fflush(nullptr);
  // Everything durable is committed and closed; skip gRPC's global teardown,
  // which otherwise holds the exit for about 1.5 s while its threads wind down.
  std::_Exit(0);
}

}  // namespace

int RunServe(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kServe, argc, argv, &args)) return *exit;
  service::ServerOptions options;
  // In this order: the first family refused is the one reported.
  for (ReadStep read : {ReadStore, ReadVenueKeys, ReadWitnessKey, ReadOutbound, ReadAddresses,
                        ReadLimits, ReadBroadcast, PlanOpenFiles, ReadDurations}) {
    if (std::optional<int> exit = read(args, &options)) return *exit;
  }
  service::KeepClientParseErrorsOutOfTheLog();
  return ServeUntilSignalled(options);
}

}  // namespace arbiter::cli
