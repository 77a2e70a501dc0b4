// The chief arbiter's console: the web pages `arbiter serve --http` serves
// beside the gRPC service, from the same process and the same parts.
//
//   /                                the hall: every game in play (?all=1: finished too), live
//   /games/{game}                    a game: board, clocks, timeline, rulings, decisions, live
//   /games/{game}/rulings/{n}/slip   the printable ruling slip (?paper=a4; A5 by default)
//   /games/{game}/audit              verification, unsigned tail, the audit bundle
//   /games/{game}/bundle             the audit bundle (arbiter.v1.AuditBundle, binary)
//   /tournaments/{id}                standings, cross-table, a round (?round=N); prints on A4
//   /webhooks                        the chief arbiter's: endpoints, deliveries failed for good
//   /login, /logout                  sessions, when the server has tokens
//   /api/...                         the JSON the pages read (proto3 JSON mapping)
//   /api/feed                        Server-Sent Events: each game as each commit leaves it
//   POST /api/tournaments/{id}/rounds/{n}/start   the chief arbiter starts a round (round_start.h)
//   /broadcast/...                   with --broadcast: the public broadcast, no sign-in
//   (broadcast_pages.h)
//
// Reads come from the read model (game_reads.h); the one write, deciding a
// pending ruling, goes through the Recorder (recorder.h), as the gRPC Decide
// does, with the signed-in caller as actor and authority. Every request is
// admitted by the gRPC side's Gatekeeper as the gRPC method it stands for
// (GetGame, Decide, VerifyGame, ExportGame, WatchAll, GetStandings,
// ListWebhooks), so a page may do
// exactly what its token may do over gRPC: an ARBITER records only in its
// games and cannot decide what the rules leave to the chief arbiter; an
// AUDITOR reads and verifies. Every write also carries the session's CSRF
// token. With no tokens the console is open, on loopback only, as gRPC is.
//
// Every connection is held to the bounds of http_limits.h by the guard in
// front of the handlers (guarded_server.h: whole requests under size and
// time limits, Host checked against DNS rebinding). With a TLS context the
// console serves HTTPS, its cookies are Secure and it sends HSTS; without
// one it serves only on loopback unless the operator says it may
// (`--http-insecure`), since hall Wi-Fi would carry tokens and cookies.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONSOLE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONSOLE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/http_tls.h"
#include "adjudicator/service/console/venue_time.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/recorder.h"
#include "adjudicator/service/registration.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/cosignature_store.h"
#include "ledger/ledger.h"
#include "ledger/witness.h"

namespace arbiter::service::console {

// How the console meets the network (`arbiter serve --http-*`).
struct ConsoleOptions {
  TlsContext tls;                       // null: plain HTTP
  std::vector<std::string> host_names;  // --http-host: names its Host may carry
  bool insecure = false;                // --http-insecure: plain HTTP beyond loopback
  FeedLimits feeds;                     // --http-feeds, --http-feeds-per-caller
  // Connections being served at once, and the broadcast's viewers: their
  // share of the open-file budget (file_budget.h).
  int connections = kMaxConnections;
  int viewers = 8192;
  // --witness-key: the witness of other logs it also is (witness_routes.h); not owned.
  ledger::Witness* witness = nullptr;
  // --witness: the cosignatures its receipts carry (receipt_route.h); not owned, may be null.
  ledger::CosignatureStore* cosignatures = nullptr;
  // --broadcast, --broadcast-delay, --trusted-proxy: the public broadcast
  // (broadcast_pages.h), at most `viewers` of them, `feeds.per_caller` of
  // one address.
  bool broadcast = false;
  absl::Duration broadcast_delay = absl::ZeroDuration();
  std::vector<std::string> trusted_proxies;
  // --time-zone: the hall's clock, for the times people read (venue_time.h).
  VenueTime venue_time;
};

// The server's parts the console shows and writes through. None is owned;
// all must outlive the console. `gate` and `recorder` are the server's own,
// the gRPC service's too: the same admission (roles, games, rates) and the
// same write rules (clock guard, bounds, venues' games) whichever way a
// write comes.
struct ConsoleParts {
  GameFolds* folds = nullptr;  // the games as the read model holds them
  ledger::Ledger* ledger = nullptr;
  TokenStore* tokens = nullptr;
  Gatekeeper* gate = nullptr;
  Recorder* recorder = nullptr;
  // The tournaments the pages show; null: no tournament pages, no rounds in
  // the hall.
  tournament::TournamentHost* tournaments = nullptr;
  // The webhook endpoints as ListWebhooks answers (webhook_admin.h); empty:
  // no /webhooks page.
  std::function<absl::StatusOr<v1::ListWebhooksResponse>()> webhooks;
};

class Console {
 public:
  // The console of `parts`, serving on `listen` (host:port; port 0: any
  // free one) in threads of its own; its live feed follows the ledger's
  // commit feed from now on, for at most `options.feeds` pages at once
  // (beyond: 503); Serve raises the open-file limit to its hard limit.
  // FAILED_PRECONDITION when `listen` is not loopback and the server has no
  // tokens, or the console has no TLS and is not `insecure`; INVALID_ARGUMENT
  // for a `listen` that is not HOST:PORT; UNAVAILABLE when the address
  // cannot be bound; the token store's errors.
  static absl::StatusOr<std::unique_ptr<Console>> Serve(const std::string& listen,
                                                        ConsoleParts parts,
                                                        ConsoleOptions options = {});
  ~Console();  // Stop()s

  // The address bound ("127.0.0.1:8080"), once serving.
  const std::string& address() const;

  // Ends the live feed (open pages see it close) and the server. Idempotent.
  void Stop();

 private:
  struct Impl;
  explicit Console(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONSOLE_H_
