// The floor arbiter's pages (issue 29): what an arbiter walking the hall
// with a phone records where it happens.
//
//   /tables                            the round's tables and what needs attention
//   /tables/{n}                        table n's game and a button per incident
//   POST /api/games/{game}/events          records events (AppendEventsRequest JSON:
//                                          {"events": [Event], "expectedRevision"})
//   POST /api/games/{game}/events/preview  the same, as a dry run: the rulings and
//                                          result the engine would derive, nothing
//                                          stored (Recorder AppendMode.validate_only)
//
// Both writes go through the Recorder as gRPC AppendEvents does, admitted as
// that method with the session's token and CSRF token: an ARBITER records
// only in its games and only the kinds its role may. An event's
// idempotencyKey makes the page's retries (hall Wi-Fi drops) land once.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FLOOR_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FLOOR_H_

#include <functional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/recorder.h"
#include "httplib.h"

namespace arbiter::service::console {

class FloorPages {
 public:
  // Admits a request as the gRPC `method` (a write also needs the session's
  // CSRF token): the console's own admission. UNAUTHENTICATED sends a page
  // to /login.
  using Admit = std::function<absl::StatusOr<Caller>(
      const httplib::Request& req, httplib::Response& res, absl::string_view method, bool write)>;

  // `recorder` is not owned and must outlive this.
  FloorPages(Recorder* recorder, Admit admit);

  // Adds the routes above to `http`.
  void Route(httplib::Server& http);

 private:
  void Page(const httplib::Request& req, httplib::Response& res);
  void Append(const httplib::Request& req, httplib::Response& res, bool validate_only);

  Recorder* recorder_;
  Admit admit_;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FLOOR_H_
