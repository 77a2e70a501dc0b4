// The webhook deliverer (issue 46.2): sends each endpoint the messages of
// the kinds it asked for (webhook_messages.h), in ledger order, at least
// once, across crashes and restarts.
//
// It follows the log as the timekeeper does (the commit feed's listener
// only flags; its own thread, arb-webhooks, reads), but the place it has
// reached is durable and per endpoint: the endpoint's cursor in the store
// (ledger/server_tables.h). An append writes nothing for webhooks. For
// each endpoint in turn it sends the first delivery not yet taken; with
// none, it reads the entries after the cursor, stops before the first one
// no signed checkpoint covers yet (a message carries its proof), and keeps
// the deliveries they give (their ids and bodies fixed then) with the
// raised cursor in one transaction. A server killed at any point sends the
// kept delivery again, with the same id and bytes.
//
// A delivery not taken (no answer, a status other than 2xx) is tried again
// on Standard Webhooks' schedule (at once, then 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 10 h), each wait stretched by up to a tenth at random and to
// a receiver's Retry-After when longer; after the last it fails for good
// (`webhook list` shows it; `webhook retry` sends it again) and the next
// is sent. A 410 disables the endpoint. Endpoints are served one at a time;
// on a database several servers share, each under a lease in the store
// renewed before each attempt, so no two servers send one endpoint's
// deliveries at once (a killed server's lease ends within a minute).
//
// One thread sends to every endpoint in turn: a slow or dead receiver
// (15 s a try at most) delays the other endpoints' deliveries, never an
// append, which writes nothing for webhooks.
//
// The thread sleeps until a commit, a checkpoint, Stop(), or the earliest
// retry or lease's end: an idle server's deliverer never wakes.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WEBHOOKS_H_
#define ARBITER_ADJUDICATOR_SERVICE_WEBHOOKS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/random/bit_gen_ref.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/webhook_sender.h"
#include "ledger/commit_feed.h"
#include "ledger/cosignature_store.h"
#include "ledger/ledger.h"
#include "ledger/log_source.h"
#include "ledger/server_tables.h"
#include "ledger/signer.h"

namespace arbiter::service {

// The waits before the 2nd .. 8th attempts (the 1st is at once).
std::vector<absl::Duration> StandardRetrySchedule();

// A Retry-After longer than this is taken as this.
inline constexpr absl::Duration kLongestRetryAfter = absl::Hours(24);

// The wait before the next attempt: `scheduled` stretched by a fraction
// drawn uniformly from [0, 0.1) of `random` (the jitter, so that the
// deliveries failed by one outage do not all come back at once), or the
// receiver's `retry_after` (at most kLongestRetryAfter) when longer.
absl::Duration RetryWait(absl::Duration scheduled, std::optional<absl::Duration> retry_after,
                         absl::BitGenRef random);

class WebhookDeliverer {
 public:
  struct Options {
    WebhookSender::Options sender;
    std::vector<absl::Duration> retries = StandardRetrySchedule();
    std::function<absl::Time()> now = [] { return absl::Now(); };
    std::string owner;  // this server's name in leases (unique per process)
  };
  // Listens to `ledger`'s commit feed from here on; reads results from
  // `folds`, the log through `log`, endpoints and deliveries in `tables`,
  // cosignatures in `cosignatures` (may be null). None but `tables`, `log`
  // and `key` is owned.
  WebhookDeliverer(ledger::Ledger* ledger, GameFolds* folds,
                   std::unique_ptr<ledger::ServerTables> tables,
                   std::unique_ptr<ledger::LogSource> log, ledger::CosignatureStore* cosignatures,
                   ledger::Signer key, Options options);
  ~WebhookDeliverer();  // Stop()s

  void Start();
  // Returns once the delivery in progress has its answer (or its timeout).
  void Stop();
  // An endpoint was added or retried here: look again now.
  void Wake();

 private:
  void Run();
  // One round over the endpoints; the time to look again (InfiniteFuture:
  // at the next commit).
  absl::Time Pass();
  // Serves one endpoint while it has work due; lowers `*wake`.
  void Serve(ledger::WebhookRow endpoint, absl::Time* wake);
  // Keeps the deliveries of the entries after the endpoint's cursor that a
  // checkpoint covers; false when there were none to read.
  bool MakeDeliveries(ledger::WebhookRow* endpoint);
  // Sends `delivery` once; records the outcome. False when the endpoint
  // was disabled (410).
  bool Attempt(const ledger::WebhookRow& endpoint, ledger::DeliveryRow delivery);
  // The result `entry` gave its game, if it gave it one.
  std::optional<v1::Result> ResultOf(const v1::LedgerEntry& entry);
  bool Stopping();
  int64_t NowMs() const;
  // How long an endpoint's lease lasts (servers sharing a database).
  absl::Duration LeaseLength() const;

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  std::unique_ptr<ledger::ServerTables> tables_;
  std::unique_ptr<ledger::LogSource> log_;
  ledger::CosignatureStore* cosignatures_;
  ledger::Signer key_;
  Options options_;
  WebhookSender sender_;
  const std::shared_ptr<ledger::CommitFeed> commits_;
  int listener_ = -1;
  std::thread thread_;

  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool woken_ ABSL_GUARDED_BY(mu_) = true;  // a commit or Wake() since the last pass

  // The deliverer's thread's alone: games whose result was found, with the
  // revision that gave it.
  struct Ended {
    uint64_t revision = 0;
    v1::Result result;
  };
  absl::flat_hash_map<std::string, Ended> ended_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WEBHOOKS_H_
