// The webhook endpoints of a server's store, as the gRPC methods
// AddWebhook, ListWebhooks, RemoveWebhook and RetryWebhook manage them
// (issue 46.1; `arbiter webhook` writes the same rows offline).
#ifndef ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_ADMIN_H_
#define ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_ADMIN_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"
#include "ledger/server_tables.h"

namespace arbiter::service {

// A new endpoint's row (its id drawn at random, its cursor `head`): the
// checks of its URL, kinds and secret, INVALID_ARGUMENT saying which.
absl::StatusOr<ledger::WebhookRow> NewWebhookRow(const v1::AddWebhookRequest& request,
                                                 uint64_t head);

class WebhookAdmin {
 public:
  // `wake` tells this server's deliverer (may be empty: none runs).
  WebhookAdmin(ledger::Ledger* ledger, std::unique_ptr<ledger::ServerTables> tables,
               std::function<void()> wake)
      : ledger_(ledger), tables_(std::move(tables)), wake_(std::move(wake)) {}

  absl::StatusOr<v1::Webhook> Add(const v1::AddWebhookRequest& request);
  absl::StatusOr<v1::ListWebhooksResponse> List();
  absl::Status Remove(const std::string& id);
  absl::StatusOr<int> Retry(const std::string& id);

 private:
  ledger::Ledger* ledger_;
  std::unique_ptr<ledger::ServerTables> tables_;
  std::function<void()> wake_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_ADMIN_H_
