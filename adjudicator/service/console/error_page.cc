#include "adjudicator/service/console/error_page.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "adjudicator/service/console/html.h"
#include "adjudicator/service/console/http_status.h"

namespace arbiter::service::console {
namespace {

// The same thing said in Chinese and in English.
struct Words {
  std::string zh;
  std::string en;
};

// What the status means, as the page's title.
Words TitleOf(int status) {
  switch (status) {
    case 400:
      return {"请求有误", "Bad request"};
    case 403:
      return {"无权查看", "Not allowed"};
    case 404:
      return {"找不到", "Not found"};
    case 429:
      return {"请求过多", "Too many requests"};
    case 503:
      return {"服务器繁忙", "Server busy"};
    default:
      return {"出错了", "Something went wrong"};
  }
}

// What was not found or not allowed, from the path the reader asked for;
// never the handler's own message, which names the gRPC side's internals.
Words ReasonOf(absl::string_view path, int status, int retry_after) {
  const std::vector<absl::string_view> part = absl::StrSplit(path.substr(1), '/');
  const auto quoted = [](absl::string_view id) {
    return Words{absl::StrCat("「", id, "」"), absl::StrCat("'", id, "'")};
  };
  if (part.size() == 2 && part[0] == "tournaments") {
    const Words id = quoted(part[1]);
    if (status == 404)
      return {absl::StrCat("没有比赛", id.zh), absl::StrCat("No tournament ", id.en)};
    if (status == 400) {
      return {"轮次（?round=）须是从1起的数字", "The round (?round=) must be a number from 1"};
    }
  }
  if (part.size() == 5 && part[0] == "games" && part[2] == "rulings" && status == 404) {
    const Words id = quoted(part[1]);
    return {absl::StrCat("对局", id.zh, "没有第", part[3], "号裁定"),
            absl::StrCat("Game ", id.en, " has no ruling ", part[3])};
  }
  if (part.size() >= 2 && part.size() <= 3 && part[0] == "games" && status == 404) {
    const Words id = quoted(part[1]);
    return {absl::StrCat("没有对局", id.zh), absl::StrCat("No game ", id.en)};
  }
  if (path == "/webhooks" && status == 403) {
    return {"你的角色不能查看推送，这是裁判长的页面",
            "Your role cannot see the webhooks: this page is the chief arbiter's"};
  }
  if (path == "/webhooks" && status == 404) {
    return {"本服务器不发送推送", "This server sends no webhooks"};
  }
  if (part[0] == "broadcast" && status == 404) {
    return {"直播中没有这一轮或这一台", "The broadcast has no such round or board"};
  }
  switch (status) {
    case 400:
      return {"请求的地址有误", "The address asked for is malformed"};
    case 403:
      return {"你的角色不能查看此页", "Your role cannot see this page"};
    case 404:
      return {"没有这个页面", "There is no such page"};
    case 429:
    case 503:
      // The answer's Retry-After, when it has one (a caller over its rate).
      if (retry_after > 0) {
        return {absl::StrCat("请在", retry_after, "秒后再试"),
                absl::StrCat("Please try again in ", retry_after,
                             retry_after == 1 ? " second" : " seconds")};
      }
      return {"请稍后再试", "Please try again in a moment"};
    default:
      return {"服务器未能回答，请稍后再试", "The server could not answer; please try again later"};
  }
}

bool IsBroadcast(absl::string_view path) {
  return path == "/broadcast" || absl::StartsWith(path, "/broadcast/");
}

// The console's language for a request that has not said: the first of
// Chinese and English in Accept-Language, as i18n.js takes the browser's
// (navigator.language), English unless Chinese comes first.
bool PrefersChinese(const httplib::Request& req) {
  for (absl::string_view tag : absl::StrSplit(req.get_header_value("Accept-Language"), ',')) {
    tag = absl::StripAsciiWhitespace(tag);
    const std::string lower = absl::AsciiStrToLower(tag.substr(0, 2));
    if (lower == "zh") return true;
    if (lower == "en") return false;
  }
  return false;
}

// The broadcast's page: one language (`?lang=en`, else Chinese, as its
// pages), no script, a link to its index.
std::string BroadcastErrorPage(const httplib::Request& req, int status, int retry_after) {
  const bool en = req.get_param_value("lang") == "en";
  const Words title = TitleOf(status);
  const Words reason = ReasonOf(req.path, status, retry_after);
  const auto say = [en](const Words& w) { return Escape(en ? w.en : w.zh); };
  std::string html =
      Page(en ? title.en : title.zh, "broadcast error-page",
           absl::StrCat("<header><h1>", say(title), "</h1></header>\n<main>\n<p class=\"reason\">",
                        say(reason), "</p>\n<p><a class=\"back\" href=\"/broadcast",
                        en ? "?lang=en" : "", "\">", say({"返回直播首页", "Back to the broadcast"}),
                        "</a></p>\n</main>"));
  if (en) html = absl::StrReplaceAll(html, {{"<html lang=\"zh-Hans\">", "<html lang=\"en\">"}});
  return html;
}

}  // namespace

bool WantsErrorPage(const httplib::Request& req) {
  return (req.method == "GET" || req.method == "HEAD") &&
         absl::StrContains(req.get_header_value("Accept"), "text/html") &&
         !absl::StartsWith(req.path, "/api/");
}

std::string RenderErrorPage(const httplib::Request& req, int status, int retry_after) {
  if (IsBroadcast(req.path)) return BroadcastErrorPage(req, status, retry_after);
  const bool zh = PrefersChinese(req);
  const Words title = TitleOf(status);
  const Words reason = ReasonOf(req.path, status, retry_after);
  // Both languages, the one the request prefers shown (tournament.css's
  // one-lang); error-page.js then shows the visitor's choice, as i18n.js
  // keeps it, and adds the switch.
  std::string html =
      Page(zh ? title.zh : title.en, "error-page",
           absl::StrCat("<link rel=\"stylesheet\" href=\"/static/tournament.css\">\n"
                        "<script type=\"module\" src=\"/static/error-page.js\"></script>\n"
                        "<header><h1><a href=\"/\">arbiter</a> · ",
                        Both(title.zh, title.en), "</h1></header>\n<main class=\"tournament\">\n",
                        "<p class=\"reason\">", Both(reason.zh, reason.en), "</p>\n",
                        "<p><a class=\"back\" href=\"/\">",
                        Both("返回对局大厅", "Back to the hall"), "</a></p>\n</main>"));
  return absl::StrReplaceAll(
      html, {{"<html lang=\"zh-Hans\">", zh ? "<html lang=\"zh-Hans\" class=\"one-lang\">"
                                            : "<html lang=\"en\" class=\"one-lang\">"}});
}

void ServeErrorPages(httplib::Server& http) {
  using Answer = httplib::Server::HandlerResponse;
  http.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (res.status < 400 || !WantsErrorPage(req)) return Answer::Unhandled;
        int retry_after = 0;
        if (!absl::SimpleAtoi(res.get_header_value("Retry-After"), &retry_after)) retry_after = 0;
        SendHtml(res, RenderErrorPage(req, res.status, retry_after));
        return Answer::Handled;
      }));
}

}  // namespace arbiter::service::console
