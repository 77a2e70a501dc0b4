#include "adjudicator/service/console/witness_routes.h"

#include <optional>
#include <string>

namespace arbiter::service::console {

void RouteWitness(httplib::Server& http, ledger::Witness* witness) {
  http.Post("/add-checkpoint", [witness](const httplib::Request& req, httplib::Response& res) {
    ledger::WitnessAnswer answer = witness->AddCheckpoint(req.body);
    res.status = answer.status;
    res.set_content(answer.body, answer.content_type);
  });
  http.Get(R"(/witness/([0-9a-f]{64})/checkpoint)",
           [witness](const httplib::Request& req, httplib::Response& res) {
             std::optional<std::string> note = witness->LatestCheckpoint(req.matches[1].str());
             if (!note.has_value()) {
               res.status = 404;
               res.set_content("no checkpoint cosigned for that log\n", "text/plain");
               return;
             }
             res.set_content(*note, "text/plain; charset=utf-8");
           });
}

}  // namespace arbiter::service::console
