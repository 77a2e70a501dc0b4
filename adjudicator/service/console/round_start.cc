#include "adjudicator/service/console/round_start.h"

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/json.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {

void StartRound(tournament::TournamentServiceImpl* tournaments, const Caller& caller,
                const httplib::Request& req, httplib::Response& res) {
  const std::string id = req.matches[1];
  if (absl::Status s = CheckId("tournament", id); !s.ok()) return SendError(res, s);
  int round = 0;
  if (!absl::SimpleAtoi(std::string(req.matches[2]), &round) || round < 1) {
    return SendError(res, absl::InvalidArgumentError("round: a number from 1"));
  }
  if (tournaments == nullptr) {
    return SendError(res, absl::NotFoundError(absl::StrCat("no tournament '", id, "'")));
  }
  v1::StartRoundRequest request;
  request.set_tournament(ResourceName("tournaments", id));
  request.set_round(round);
  absl::StatusOr<v1::StartRoundResponse> started = tournaments->StartRoundAs(caller, request);
  if (!started.ok()) return SendError(res, started.status());
  SendJson(res, ToJson(*started));
}

}  // namespace arbiter::service::console
