#include "adjudicator/service/webhook_admin.h"

#include <set>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "adjudicator/service/webhook_messages.h"
#include "adjudicator/service/webhook_sender.h"
#include "ledger/webhook_signature.h"

namespace arbiter::service {

absl::StatusOr<ledger::WebhookRow> NewWebhookRow(const v1::AddWebhookRequest& request,
                                                 uint64_t head) {
  if (absl::StatusOr<WebhookUrl> u = ParseWebhookUrl(request.url()); !u.ok()) return u.status();
  absl::StatusOr<std::set<std::string>> kinds =
      ParseWebhookKinds(absl::StrJoin(request.kinds(), ","));
  if (!kinds.ok()) return kinds.status();
  if (!request.secret().empty()) {
    if (absl::StatusOr<std::string> b = ledger::WebhookSecretBytes(request.secret()); !b.ok()) {
      return b.status();
    }
  }
  absl::BitGen gen;
  return ledger::WebhookRow{
      .id = absl::StrCat("wh_", absl::Hex(absl::Uniform<uint64_t>(gen), absl::kZeroPad16)),
      .url = request.url(),
      .kinds = absl::StrJoin(*kinds, ","),
      .secret = request.secret(),
      .created = absl::ToUnixSeconds(absl::Now()),
      .cursor = head};
}

absl::StatusOr<v1::Webhook> WebhookAdmin::Add(const v1::AddWebhookRequest& request) {
  absl::StatusOr<uint64_t> head = ledger_->log().Head();
  if (!head.ok()) return head.status();
  absl::StatusOr<ledger::WebhookRow> row = NewWebhookRow(request, *head);
  if (!row.ok()) return row.status();
  if (absl::Status s = tables_->AddWebhook(*row); !s.ok()) return s;
  if (wake_) wake_();
  v1::Webhook out;
  out.set_id(row->id);
  out.set_url(row->url);
  for (absl::string_view k : absl::StrSplit(row->kinds, ',')) out.add_kinds(std::string(k));
  out.set_has_secret(!row->secret.empty());
  out.set_cursor(row->cursor);
  return out;
}

absl::StatusOr<v1::ListWebhooksResponse> WebhookAdmin::List() {
  absl::StatusOr<std::vector<ledger::WebhookRow>> rows = tables_->Webhooks();
  if (!rows.ok()) return rows.status();
  v1::ListWebhooksResponse out;
  for (const ledger::WebhookRow& w : *rows) {
    v1::Webhook* hook = out.add_webhooks();
    hook->set_id(w.id);
    hook->set_url(w.url);
    for (absl::string_view k : absl::StrSplit(w.kinds, ',')) hook->add_kinds(std::string(k));
    hook->set_has_secret(!w.secret.empty());  // never the secret itself
    hook->set_cursor(w.cursor);
    if (w.disabled.has_value()) hook->mutable_disabled()->set_seconds(*w.disabled);
    hook->set_disabled_why(w.disabled_why);
    absl::StatusOr<std::vector<ledger::DeliveryRow>> waiting = tables_->Deliveries(w.id);
    if (!waiting.ok()) return waiting.status();
    for (const ledger::DeliveryRow& d : *waiting) {
      v1::Webhook::Delivery* out_d = hook->add_waiting();
      out_d->set_id(d.id);
      out_d->set_kind(d.kind);
      out_d->set_position(d.position);
      out_d->set_attempts(d.attempts);
      out_d->set_failed(d.failed);
      out_d->set_last_error(d.last_error);
    }
  }
  return out;
}

absl::Status WebhookAdmin::Remove(const std::string& id) {
  absl::StatusOr<bool> removed = tables_->RemoveWebhook(id);
  if (!removed.ok()) return removed.status();
  if (!*removed) return absl::NotFoundError(absl::StrCat("no webhook ", id));
  return absl::OkStatus();
}

absl::StatusOr<int> WebhookAdmin::Retry(const std::string& id) {
  absl::StatusOr<int> n = tables_->RetryWebhook(id, absl::ToUnixMillis(absl::Now()));
  if (n.ok() && wake_) wake_();
  return n;
}

}  // namespace arbiter::service
