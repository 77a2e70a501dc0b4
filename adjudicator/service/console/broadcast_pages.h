// The public broadcast's routes (`arbiter serve --broadcast`, broadcast.h),
// served without sign-in and without cookies:
//
//   /broadcast                          the rounds being played, then those finished
//   /broadcast/{tournament}/{round}     every board: players, move, clocks, result
//   /broadcast/{tournament}/{round}.sgf every game of the round, one SGF collection
//   /broadcast/{t}/{round}/{board}      a board: the position so far, clocks, result
//   /broadcast/{t}/{round}/{board}.sgf  its game so far
//   /broadcast/events                   Server-Sent Events, one per entry released
//
// Pages are in Chinese, or English with ?lang=en (words.json "broadcast"),
// laid out for a phone. Every answer carries an ETag (of its bytes) and a
// Cache-Control a shared cache may keep it by (public, max-age 1 s while a
// game shown is in play, 60 s once all have results), and answers a
// matching If-None-Match with 304, so an HTTP cache in front (nginx, a
// CDN) carries the viewers: per URL it asks the server at most once per
// max-age. The event stream is not cached; its viewers are parked on one
// loop of their own thread (followers.h), at most `limits.in_all`, `limits.per_caller` of one
// address: the viewer's own, taken from X-Forwarded-For only when the
// connection comes from a `trusted_proxies` address.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_PAGES_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_PAGES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "adjudicator/service/console/broadcast.h"
#include "adjudicator/service/console/followers.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/registration.h"
#include "httplib.h"

namespace arbiter::service::console {

class BroadcastPages {
 public:
  // None is owned; all must outlive this. `tournaments` may be null (then
  // no round is broadcast).
  BroadcastPages(Broadcast* broadcast, tournament::TournamentHost* tournaments, FeedLimits limits,
                 std::vector<std::string> trusted_proxies);

  void Route(httplib::Server& http);
  // Ends every viewer's stream. Idempotent.
  void Stop() { followers_.Stop(); }

 private:
  void Rounds(const httplib::Request& req, httplib::Response& res);
  void Round(const httplib::Request& req, httplib::Response& res, bool sgf);
  void Board(const httplib::Request& req, httplib::Response& res, bool sgf);
  void Events(const httplib::Request& req, httplib::Response& res);

  Broadcast* const broadcast_;
  tournament::TournamentHost* const tournaments_;
  const std::vector<std::string> trusted_proxies_;
  Followers followers_;
};

// The viewer's address: `remote` itself, unless it is one of `trusted`
// proxies, then the last address of `forwarded_for` (X-Forwarded-For) that
// is not a trusted proxy (an address the client wrote itself, further
// left, is not believed).
std::string ViewerAddress(absl::string_view remote, absl::string_view forwarded_for,
                          const std::vector<std::string>& trusted);

// Sends `body` with its ETag and `Cache-Control: public, max-age=`
// `max_age`, or 304 when the request's If-None-Match names that ETag.
void SendCacheable(const httplib::Request& req, httplib::Response& res, std::string body,
                   absl::string_view content_type, absl::Duration max_age);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_PAGES_H_
