// `arbiter serve`: the ledger, the read model that judges it, the live-game
// timekeeper, the web console (when asked for) and the gRPC server (arbiter.v1.Arbiter,
// arbiter.v1.TournamentService, the standard grpc.health.v1.Health service
// and the stock server reflection, every call admitted by one authorization
// interceptor), started and stopped as one.
#ifndef ARBITER_ADJUDICATOR_SERVICE_SERVER_H_
#define ARBITER_ADJUDICATOR_SERVICE_SERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/auth_tls.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/venue_time.h"
#include "adjudicator/service/venue_games.h"
#include "adjudicator/service/witness_host.h"
#include "ledger/ledger.h"

namespace arbiter::service {

struct ServerOptions {
  std::string data_dir;  // the ledger's directory (created if absent)
  // A PostgreSQL ledger (postgresql://...) shared with other servers, or
  // empty for the SQLite ledger in data_dir. With one, data_dir keeps only
  // this server's own files: the signing key (the same on every server),
  // witness keys and tournaments (tokens, sessions, cosignatures and the
  // log's origin are the database's).
  std::string ledger;
  // The log's origin in its C2SP checkpoints (ledger/internal/log_origin.h); empty:
  // the one kept in the database, else from the host and the data folder.
  std::string log_origin;
  std::string listen = "127.0.0.1:50051";  // host:port; port 0 picks a free one
  uint64_t checkpoint_every = 1000;        // events between periodic checkpoints
  // The unsigned tail's bound: every write is covered by a signed
  // checkpoint within this long (ledger.h, LedgerOptions::sign_within).
  absl::Duration sign_within = absl::Seconds(1);
  // Events dated further than this ahead of the server's clock are refused
  // unless the request replays a record; InfiniteDuration: no guard.
  absl::Duration max_skew = absl::Minutes(10);
  // A watch stream whose message has waited this long for a client that
  // does not read is cancelled, freeing its place (watch_stream.h).
  absl::Duration watch_stall = absl::Seconds(60);
  bool live_timers = true;                    // run the timekeeper
  TlsFiles tls;                               // empty: plaintext (see auth_tls.h)
  AuthLimits limits;                          // per-caller rates (see auth_gatekeeper.h)
  TokenStore::Clock token_clock = absl::Now;  // when tokens expire (tests pass their own)
  std::string http_listen;  // the web console's host:port (console/console.h); empty: none
  // The names the console answers to besides its address (the Host check
  // against DNS rebinding), and whether it may serve plain HTTP beyond
  // loopback; with `tls` it serves HTTPS with the same certificate.
  std::vector<std::string> http_hosts;
  bool http_insecure = false;
  // How many pages follow the console's live feed at once, in all and per
  // caller (`--http-feeds`, `--http-feeds-per-caller`).
  console::FeedLimits http_feeds;
  // The public broadcast on the console (`--broadcast`, console/broadcast.h):
  // its delay (0 to 60 min) and the proxies whose X-Forwarded-For names
  // the viewer (`--trusted-proxy`). Its viewers: at most broadcast_viewers,
  // http_feeds.per_caller of one address.
  bool broadcast = false;
  int broadcast_viewers = 8192;
  // The console's connections being served at once.
  int http_connections = console::kMaxConnections;
  absl::Duration broadcast_delay = absl::ZeroDuration();
  std::vector<std::string> trusted_proxies;
  // The hall's clock, as the console's slips and pages say time
  // (`--time-zone`, console/venue_time.h); UTC by default.
  console::VenueTime venue_time;
  // The venues whose games this server takes (SyncVenueGame, venue_games.h):
  // name → public key (DER).
  VenueGames::Keys venue_keys;
  // The logs this server witnesses (witness_host.h), on its console: needs
  // http_listen. Its state is `witness/` in data_dir.
  WitnessOptions witness;
  // The witnesses this server's checkpoints are sent to (witness_feed.h),
  // URL=VKEY each; their cosignatures are kept in the ledger's database.
  std::vector<std::string> witnesses;
  // The webhook key (`--webhook-key`, made if absent, its whpk_ beside it):
  // with one, the server sends the webhooks of its store's endpoints
  // (webhooks.h); without, it sends none.
  std::string webhook_key;
  // Webhooks may go to loopback and private addresses (a venue's LAN, tests).
  bool webhook_allow_private = false;
};

// What a process whose work is serving calls once, before Start: turns off
// abseil's mutex deadlock detection. Debian's abseil is built with it on,
// and then every Mutex::Lock takes one process-wide lock to keep a graph of
// lock orders: about 2.5 % of a loaded server's CPU, and contention between
// its threads. Tests that run servers in their own process leave it on, to
// catch a lock-order inversion.
void TurnOffDeadlockDetection();

class Server {
 public:
  // Opens the ledger and starts serving. FAILED_PRECONDITION when another
  // process holds the data directory (folder_lock.h: the message names its
  // pid and addresses), or when either address is beyond loopback on a
  // server with no tokens; UNAVAILABLE when an address cannot be bound
  // ("address in use: HOST:PORT ..." when another process listens there:
  // neither listener shares a port, listen_address.h).
  static absl::StatusOr<std::unique_ptr<Server>> Start(const ServerOptions& options);
  ~Server();  // Shutdown()s

  // The address actually bound (the port resolved).
  const std::string& address() const;
  // The web console's address (the port resolved); empty without one.
  const std::string& console_address() const;

  // The witness's verifier key (vkey, type 0x04); empty when not a witness.
  std::string witness_vkey() const;

  // The ledger it serves, for in-process tests and tools (read it; writes
  // go through the services).
  ledger::Ledger* ledger() const;

  // Graceful: health turns NOT_SERVING, watch streams end (each status
  // written before gRPC's GOAWAY, within `grace`), new calls are
  // refused, calls in flight get up to `grace` to finish, the timekeeper
  // stops, and the ledger commits what is queued and closes. Idempotent.
  // An append is acknowledged only after its commit, so a call cut off by
  // the grace period was either committed whole or not at all: its client
  // retries with the same idempotency keys. (gRPC holds Shutdown for the
  // whole grace while any client keeps a connection open, so it is short.)
  void Shutdown(absl::Duration grace = absl::Seconds(1));

 private:
  struct Parts;
  explicit Server(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_SERVER_H_
