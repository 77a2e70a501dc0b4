// Where a visitor who must sign in is sent, and where signing in returns
// them: the page they asked for (a link to a ruling slip or an audit from a
// report), so that they need not find it again by hand.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SIGN_IN_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SIGN_IN_H_

#include <string>

#include "absl/strings/string_view.h"
#include "httplib.h"

namespace arbiter::service::console {

// "/login", with "?next=" and the page asked for (percent-encoded) when
// `req` is a GET of a page other than the hall.
std::string SignInPath(const httplib::Request& req);

// Where to go once signed in: `next` when it is a path of this console
// (one "/" then printable ASCII, not "//" or "/\", which a browser reads as
// another host), else the hall, "/". Never another site: an open redirect
// would lend the console's name to a phishing link.
std::string AfterSignIn(absl::string_view next);

// `text` percent-encoded for a query value: all but the unreserved
// characters and "/".
std::string QueryValue(absl::string_view text);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SIGN_IN_H_
