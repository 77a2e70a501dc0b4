// The console's one tournament write: POST
// /api/tournaments/{id}/rounds/{n}/start, the chief arbiter's "start round"
// button on the hall (static/start-round.js). It is StartRound
// (tournament_service.h) for a caller the console admitted as the gRPC
// method /arbiter.v1.TournamentService/StartRound (access ORGANISE: the
// chief arbiter's), with the session's CSRF token; the answer is the
// StartRoundResponse as proto3 JSON, errors as every console error.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ROUND_START_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ROUND_START_H_

#include "absl/strings/string_view.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/tournament_service.h"
#include "httplib.h"

namespace arbiter::service::console {

// The gRPC method the request is admitted as.
inline constexpr absl::string_view kStartRoundMethod = "/arbiter.v1.TournamentService/StartRound";

// The route's path pattern: the tournament id, then the round.
inline constexpr char kStartRoundPath[] = R"(/api/tournaments/([^/]+)/rounds/([0-9]+)/start)";

// Answers the request `req` (matched by kStartRoundPath) from `caller`,
// already admitted. `tournaments` null: NOT_FOUND (the server keeps none).
void StartRound(tournament::TournamentServiceImpl* tournaments, const Caller& caller,
                const httplib::Request& req, httplib::Response& res);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ROUND_START_H_
