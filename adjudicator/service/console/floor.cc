#include "adjudicator/service/console/floor.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/assets.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/console/sign_in.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {
namespace {

constexpr absl::string_view kReadGame = "/arbiter.v1.Arbiter/GetGame";
constexpr absl::string_view kAppend = "/arbiter.v1.Arbiter/AppendEvents";

}  // namespace

FloorPages::FloorPages(Recorder* recorder, Admit admit)
    : recorder_(recorder), admit_(std::move(admit)) {}

void FloorPages::Page(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<Caller> caller = admit_(req, res, kReadGame, false);
  if (absl::IsUnauthenticated(caller.status())) return res.set_redirect(SignInPath(req), 303);
  if (!caller.ok()) return SendError(res, caller.status());
  const Asset* page = FindAsset("tables.html");
  if (page == nullptr) return SendError(res, absl::InternalError("tables.html is not embedded"));
  res.set_content(page->body.data(), page->body.size(), "text/html; charset=utf-8");
}

void FloorPages::Append(const httplib::Request& req, httplib::Response& res, bool validate_only) {
  if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
    return SendError(res, absl::InvalidArgumentError("the body must be application/json"));
  }
  absl::StatusOr<Caller> caller = admit_(req, res, kAppend, true);
  if (!caller.ok()) return SendError(res, caller.status());
  const std::string id = req.matches[1];
  if (absl::Status s = CheckId("game", id); !s.ok()) return SendError(res, s);
  // What the gRPC interceptor checks for an ARBITER's record calls.
  if (absl::Status s = caller->MayRecordIn(id); !s.ok()) return SendError(res, s);
  v1::AppendEventsRequest request;
  if (absl::Status s = FromJson(req.body, &request); !s.ok()) return SendError(res, s);
  if (!request.game().empty() && request.game() != ResourceName("games", id)) {
    return SendError(res, absl::InvalidArgumentError(absl::StrCat(
                              "game: the body names '", request.game(), "', the path '", id, "'")));
  }
  std::optional<uint64_t> expected;
  if (request.has_expected_revision()) expected = request.expected_revision();
  std::vector<v1::Event> events(request.events().begin(), request.events().end());
  Recorder::AppendMode mode;
  mode.validate_only = validate_only;
  absl::StatusOr<v1::AppendEventsResponse> r =
      recorder_->Append(*caller, id, expected, std::move(events), mode);
  if (!r.ok()) return SendError(res, r.status());
  SendJson(res, ToJson(*r));
}

void FloorPages::Route(httplib::Server& http) {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get("/tables", [this](Req q, Res s) { Page(q, s); });
  http.Get(R"(/tables/([0-9]{1,4}))", [this](Req q, Res s) { Page(q, s); });
  http.Post(R"(/api/games/([^/]+)/events)", [this](Req q, Res s) { Append(q, s, false); });
  http.Post(R"(/api/games/([^/]+)/events/preview)", [this](Req q, Res s) { Append(q, s, true); });
}

}  // namespace arbiter::service::console
