// The page a browser is shown when the console or the broadcast cannot
// answer what it asked for (probe finding 3): a missing tournament, game,
// ruling slip or page, a bad `?round=`, a role refused `/webhooks`, a
// broadcast round or board that is not there. A browser's navigation (a GET
// whose Accept names text/html, outside /api/) gets a small HTML page with
// the same status: a title, the reason in words, a link back to the hall
// (the broadcast's index for the public pages). API and JSON clients keep
// the JSON error (http_status.h).
//
// Language: the console's pages carry both, Chinese and English, the
// request's Accept-Language choosing which shows until the page's script
// (static/error-page.js) applies the visitor's choice, as the other pages do
// (i18n.js); the broadcast's, one language by `?lang=`, as its pages.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ERROR_PAGE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ERROR_PAGE_H_

#include <string>

#include "httplib.h"

namespace arbiter::service::console {

// True for a browser's navigation to a page: GET or HEAD, Accept naming
// text/html, and a path outside /api/.
bool WantsErrorPage(const httplib::Request& req);

// The error page for `req` answered with `status` (400 and up); a 429 or
// 503 whose answer says Retry-After (`retry_after` seconds, 0: none) says
// when to try again.
std::string RenderErrorPage(const httplib::Request& req, int status, int retry_after = 0);

// Installs the error handler that answers each navigation's error with the
// page, keeping the status; every other answer is left as its handler wrote it.
void ServeErrorPages(httplib::Server& http);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ERROR_PAGE_H_
