#include "adjudicator/service/console/webhooks_page.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/html.h"

namespace arbiter::service::console {
namespace {

// The deliveries of one endpoint that failed for good, as a table; how
// many others wait for their next attempt.
std::string FailedDeliveries(const v1::Webhook& hook) {
  std::string rows;
  int waiting = 0;
  for (const v1::Webhook::Delivery& d : hook.waiting()) {
    if (!d.failed()) {
      ++waiting;
      continue;
    }
    absl::StrAppend(&rows, "<tr class=\"failed\"><td><code>", Escape(d.id()), "</code></td><td>",
                    Escape(d.kind()), "</td><td>", d.position(), "</td><td>", d.attempts(),
                    "</td><td>", Escape(d.last_error()), "</td></tr>\n");
  }
  std::string out =
      absl::StrCat("<p>", Both("等待重试：", "waiting for a retry: "), waiting, "</p>\n");
  if (rows.empty()) {
    absl::StrAppend(&out, "<p class=\"none\">",
                    Both("没有彻底失败的推送", "no delivery failed for good"), "</p>\n");
    return out;
  }
  absl::StrAppend(
      &out, "<h3>", Both("彻底失败的推送", "Failed for good"), "</h3>\n<div class=\"wide\">",
      "<table class=\"deliveries\"><thead><tr><th>webhook-id</th><th>", Both("类型", "kind"),
      "</th><th>", Both("账本位置", "log position"), "</th><th>", Both("尝试次数", "attempts"),
      "</th><th>", Both("最后的错误", "last error"), "</th></tr></thead><tbody>\n", rows,
      "</tbody></table></div>\n<p>", Both("重新发送：", "To send them again:"),
      " <code>arbiter webhook retry ", Escape(hook.id()), "</code></p>\n");
  return out;
}

std::string Endpoint(const v1::Webhook& hook, const VenueTime& time) {
  std::string state =
      hook.has_disabled()
          ? absl::StrCat("<p class=\"bad\">", Both("已停用", "disabled"), " ",
                         time.Format(absl::FromUnixSeconds(hook.disabled().seconds())), " ",
                         Both("原因：", "why: "), Escape(hook.disabled_why()), "</p>\n")
          : "";
  return absl::StrCat("<section class=\"endpoint\" id=\"", Escape(hook.id()), "\">\n<h2><code>",
                      Escape(hook.id()), "</code> ", Escape(hook.url()), "</h2>\n<p>",
                      Both("类型：", "kinds: "), Escape(absl::StrJoin(hook.kinds(), ", ")), " · ",
                      Both("共享密钥（v1）：", "shared secret (v1): "),
                      hook.has_secret() ? Both("已设", "set") : Both("无", "none"), " · ",
                      Both("已推送至位置", "made through position"), " ", hook.cursor(), "</p>\n",
                      state, FailedDeliveries(hook), "</section>\n");
}

}  // namespace

std::string RenderWebhooks(const v1::ListWebhooksResponse& list, const VenueTime& time) {
  std::string endpoints;
  for (const v1::Webhook& hook : list.webhooks()) absl::StrAppend(&endpoints, Endpoint(hook, time));
  if (endpoints.empty()) {
    endpoints = absl::StrCat(
        "<p class=\"none\">",
        Both("没有推送地址（arbiter webhook add）", "no endpoint (arbiter webhook add)"), "</p>\n");
  }
  const std::string body = absl::StrCat(
      "<header><h1><a href=\"/\">arbiter</a> · ", Both("推送", "Webhooks"),
      "</h1></header>\n<main class=\"tournament webhooks\">\n", endpoints, "</main>\n");
  return Page("推送 Webhooks", "webhooks-page",
              absl::StrCat("<link rel=\"stylesheet\" href=\"/static/tournament.css\">\n"
                           "<script type=\"module\" src=\"/static/webhooks.js\"></script>\n",
                           body));
}

}  // namespace arbiter::service::console
