#include "adjudicator/service/webhooks.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/webhook_messages.h"
#include "ledger/receipt.h"
#include "ledger/stream.h"
#include "ledger/thread_name.h"
#include "ledger/webhook_signature.h"

namespace arbiter::service {
namespace {

// Entries read at a time after an endpoint's cursor.
constexpr size_t kWebhookBatch = 256;
// After a store that cannot be read, the next look.
constexpr absl::Duration kAfterError = absl::Seconds(5);

void LogError(const std::string& what, const absl::Status& s) {
  std::fprintf(stderr, "arbiter serve: webhooks: %s: %s\n", what.c_str(), s.ToString().c_str());
}

absl::Time FromMs(int64_t ms) { return absl::FromUnixMillis(ms); }

}  // namespace

std::vector<absl::Duration> StandardRetrySchedule() {
  return {absl::Seconds(5), absl::Minutes(5), absl::Minutes(30), absl::Hours(2),
          absl::Hours(5),   absl::Hours(10),  absl::Hours(10)};
}

absl::Duration RetryWait(absl::Duration scheduled, std::optional<absl::Duration> retry_after,
                         absl::BitGenRef random) {
  absl::Duration wait = scheduled + scheduled * absl::Uniform(random, 0.0, 0.1);
  if (retry_after.has_value()) wait = std::max(wait, std::min(*retry_after, kLongestRetryAfter));
  return wait;
}

WebhookDeliverer::WebhookDeliverer(ledger::Ledger* ledger, GameFolds* folds,
                                   std::unique_ptr<ledger::ServerTables> tables,
                                   std::unique_ptr<ledger::LogSource> log,
                                   ledger::CosignatureStore* cosignatures, ledger::Signer key,
                                   Options options)
    : ledger_(ledger),
      folds_(folds),
      tables_(std::move(tables)),
      log_(std::move(log)),
      cosignatures_(cosignatures),
      key_(std::move(key)),
      options_(std::move(options)),
      sender_(options_.sender),
      commits_(ledger->commit_feed()) {
  // On the committing thread: only flag. A checkpoint signed tells too.
  listener_ = commits_->AddListener([this](uint64_t) { Wake(); });
}

WebhookDeliverer::~WebhookDeliverer() {
  Stop();
  commits_->RemoveListener(listener_);
}

void WebhookDeliverer::Start() {
  thread_ = std::thread([this] {
    NameThisThread("webhooks");
    Run();
  });
}

void WebhookDeliverer::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void WebhookDeliverer::Wake() {
  absl::MutexLock lock(&mu_);
  woken_ = true;
}

bool WebhookDeliverer::Stopping() {
  absl::MutexLock lock(&mu_);
  return stop_;
}

absl::Duration WebhookDeliverer::LeaseLength() const {
  return 2 * options_.sender.timeout + absl::Seconds(30);
}

int64_t WebhookDeliverer::NowMs() const { return absl::ToUnixMillis(options_.now()); }

void WebhookDeliverer::Run() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      if (stop_) return;
      woken_ = false;  // what arrives during the pass wakes the next
    }
    const absl::Time wake = Pass();
    absl::MutexLock lock(&mu_);
    auto woken = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_ || woken_; };
    if (wake == absl::InfiniteFuture()) {
      mu_.Await(absl::Condition(&woken));
    } else {
      mu_.AwaitWithDeadline(absl::Condition(&woken), wake);
    }
  }
}

absl::Time WebhookDeliverer::Pass() {
  absl::StatusOr<std::vector<ledger::WebhookRow>> endpoints = tables_->Webhooks();
  if (!endpoints.ok()) {
    LogError("cannot read the endpoints", endpoints.status());
    return options_.now() + kAfterError;
  }
  absl::Time wake = absl::InfiniteFuture();
  for (ledger::WebhookRow& endpoint : *endpoints) {
    if (Stopping()) break;
    if (endpoint.disabled.has_value()) continue;
    const int64_t now = NowMs();
    // One server alone writes a SQLite ledger (its folder's lock): a lease
    // is for servers sharing a database, and one left by a killed server
    // would hold its successor back until it ends.
    absl::StatusOr<bool> leased =
        !ledger_->shared() ? true
                           : tables_->LeaseWebhook(endpoint.id, options_.owner, now,
                                                   now + absl::ToInt64Milliseconds(LeaseLength()));
    if (!leased.ok()) {
      LogError(absl::StrCat("endpoint ", endpoint.id), leased.status());
      wake = std::min(wake, options_.now() + kAfterError);
      continue;
    }
    if (!*leased) {
      // Another server sends it now: look again when its lease ends.
      absl::StatusOr<int64_t> end = tables_->WebhookLeaseEnd(endpoint.id, options_.owner);
      wake = std::min(wake, end.ok() && *end > 0 ? FromMs(*end) : options_.now() + kAfterError);
      continue;
    }
    const std::string id = endpoint.id;
    Serve(std::move(endpoint), &wake);
    if (ledger_->shared()) (void)tables_->LeaseWebhook(id, options_.owner, NowMs(), 0);
  }
  return wake;
}

void WebhookDeliverer::Serve(ledger::WebhookRow endpoint, absl::Time* wake) {
  while (!Stopping()) {
    if (ledger_->shared()) {
      // Renewed before each attempt, which lasts at most twice the timeout.
      const int64_t now = NowMs();
      absl::StatusOr<bool> held = tables_->LeaseWebhook(
          endpoint.id, options_.owner, now, now + absl::ToInt64Milliseconds(LeaseLength()));
      if (!held.ok() || !*held) return;
    }
    absl::StatusOr<std::vector<ledger::DeliveryRow>> deliveries = tables_->Deliveries(endpoint.id);
    if (!deliveries.ok()) {
      LogError(absl::StrCat("endpoint ", endpoint.id), deliveries.status());
      *wake = std::min(*wake, options_.now() + kAfterError);
      return;
    }
    const ledger::DeliveryRow* next = nullptr;
    for (const ledger::DeliveryRow& d : *deliveries) {
      if (!d.failed) {
        next = &d;
        break;
      }
    }
    if (next == nullptr) {
      if (!MakeDeliveries(&endpoint)) return;  // at the next commit or checkpoint
      continue;
    }
    if (next->next_at > NowMs()) {
      *wake = std::min(*wake, FromMs(next->next_at));
      return;
    }
    if (!Attempt(endpoint, *next)) return;
  }
}

bool WebhookDeliverer::MakeDeliveries(ledger::WebhookRow* endpoint) {
  absl::StatusOr<std::set<std::string>> kinds = ParseWebhookKinds(endpoint->kinds);
  if (!kinds.ok()) return false;
  // What the commit feed has published, never further (ReadPublished): a
  // commit not yet published may not have handed its game's fold on, and
  // ResultOf reads it; the publish wakes this thread again.
  std::vector<v1::LedgerEntry> entries;
  absl::StatusOr<size_t> read =
      ledger::ReadPublished(*ledger_->commit_feed(), ledger_->log(), endpoint->cursor,
                            kWebhookBatch, [&](const v1::LedgerEntry& e) { entries.push_back(e); });
  if (!read.ok()) {
    LogError("cannot read the log", read.status());
    return false;
  }
  uint64_t through = endpoint->cursor;
  std::vector<ledger::DeliveryRow> made;
  for (const v1::LedgerEntry& entry : entries) {
    std::optional<v1::Result> result;
    if (kinds->contains("game.result") && !ledger::IsTournamentStream(entry.game_id())) {
      result = ResultOf(entry);
    }
    std::vector<WebhookMessage> messages =
        MessagesOf(entry, result.has_value() ? &*result : nullptr, *kinds);
    if (!messages.empty()) {
      // A message leaves with its proof: it waits for a signed checkpoint.
      absl::StatusOr<std::optional<v1::Checkpoint>> covering =
          ledger_->checkpoint_index().Covering(entry.position());
      if (!covering.ok() || !covering->has_value()) break;
      absl::StatusOr<std::string> proof =
          ledger::ExportReceipt(*log_, cosignatures_, entry.position());
      if (!proof.ok()) {
        LogError(absl::StrCat("the proof of position ", entry.position()), proof.status());
        break;
      }
      for (const WebhookMessage& m : messages) {
        absl::StatusOr<std::string> body = WebhookBody(m, *proof);
        if (!body.ok()) {
          LogError(m.id, body.status());
          continue;
        }
        made.push_back(ledger::DeliveryRow{.endpoint = endpoint->id,
                                           .id = m.id,
                                           .position = m.position,
                                           .kind = m.kind,
                                           .body = *std::move(body),
                                           .next_at = NowMs()});
      }
    }
    through = entry.position();
  }
  if (through == endpoint->cursor) return false;
  if (absl::Status s = tables_->AdvanceWebhook(endpoint->id, through, made); !s.ok()) {
    LogError(absl::StrCat("endpoint ", endpoint->id), s);
    return false;
  }
  endpoint->cursor = through;
  return true;
}

bool WebhookDeliverer::Attempt(const ledger::WebhookRow& endpoint, ledger::DeliveryRow delivery) {
  const absl::Time now = options_.now();
  const std::string timestamp = absl::StrCat(absl::ToUnixSeconds(now));
  absl::StatusOr<std::string> signature =
      ledger::SignWebhook(key_, endpoint.secret, delivery.id, timestamp, delivery.body);
  WebhookAnswer answer;
  if (signature.ok()) {
    answer = sender_.Post(endpoint.url,
                          {{"webhook-id", delivery.id},
                           {"webhook-timestamp", timestamp},
                           {"webhook-signature", *signature},
                           {"User-Agent", "arbiter-webhooks"}},
                          delivery.body);
  } else {
    answer.error = std::string(signature.status().message());
  }
  if (answer.status >= 200 && answer.status < 300) {
    if (absl::Status s = tables_->DeliveryDone(endpoint.id, delivery.id); !s.ok()) {
      LogError(delivery.id, s);  // sent again: at least once
    }
    return true;
  }
  if (answer.status == 410) {
    if (absl::Status s = tables_->DisableWebhook(
            endpoint.id, absl::ToUnixSeconds(now),
            absl::StrCat("the receiver answered 410 Gone to ", delivery.id));
        !s.ok()) {
      LogError(endpoint.id, s);
    }
    return false;
  }
  ++delivery.attempts;
  delivery.last_error =
      answer.status != 0 ? absl::StrCat("HTTP ", answer.status) : std::move(answer.error);
  if (delivery.attempts > static_cast<int>(options_.retries.size())) {
    delivery.failed = true;
  } else {
    static absl::BitGen* const jitter = new absl::BitGen();
    const absl::Duration wait =
        RetryWait(options_.retries[delivery.attempts - 1], answer.retry_after, *jitter);
    // From the answer, not the request: a Retry-After counts from when it came.
    delivery.next_at = absl::ToUnixMillis(options_.now() + wait);
  }
  if (absl::Status s = tables_->UpdateDelivery(delivery); !s.ok()) LogError(delivery.id, s);
  return true;
}

std::optional<v1::Result> WebhookDeliverer::ResultOf(const v1::LedgerEntry& entry) {
  if (auto it = ended_.find(entry.game_id()); it != ended_.end()) {
    if (it->second.revision != entry.revision()) return std::nullopt;
    return it->second.result;
  }
  // The game as it stands: with no result now, this entry gave none.
  absl::StatusOr<GameView> view = folds_->Get(entry.game_id());
  if (!view.ok() || view->game().result() == nullptr) return std::nullopt;
  // Which event gave it: the game folded again, event by event.
  absl::StatusOr<std::string> pin = ledger_->log().RulesPin(entry.game_id());
  if (!pin.ok()) return std::nullopt;
  AdjudicatorJudge judge;
  std::unique_ptr<ledger::GameJudge> fold;
  for (uint64_t after = 0;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> page =
        ledger_->log().ReadGame(entry.game_id(), after, 512);
    if (!page.ok() || page->empty()) return std::nullopt;
    for (const v1::LedgerEntry& e : *page) {
      v1::Event event;
      if (!event.ParseFromString(e.event())) return std::nullopt;
      if (fold == nullptr) {
        absl::StatusOr<std::unique_ptr<ledger::GameJudge>> opened =
            judge.Reopen(entry.game_id(), event.game_created(), *pin);
        if (!opened.ok()) return std::nullopt;
        fold = *std::move(opened);
      }
      if (!fold->Apply(event).ok()) return std::nullopt;
      if (fold->result() != nullptr) {
        if (ended_.size() > 65536) ended_.clear();
        ended_[entry.game_id()] = Ended{e.revision(), *fold->result()};
        return ResultOf(entry);
      }
      after = e.revision();
    }
  }
}

}  // namespace arbiter::service
