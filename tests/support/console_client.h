// The web console as its tests reach it: an HTTP client of a server's
// console, and a session signed in with a token, the way a browser's form
// does it (POST /login, the cookie of its 303).
#ifndef ARBITER_TESTS_SUPPORT_CONSOLE_CLIENT_H_
#define ARBITER_TESTS_SUPPORT_CONSOLE_CLIENT_H_

#include <httplib.h>

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "tests/support/arbiter_process.h"

namespace arbiter::testing {

// A client of `server`'s console (`serve --http`): 5 s to connect and
// `read_timeout` for an answer, so a console that hangs fails the test
// instead of the test hanging.
std::unique_ptr<httplib::Client> ConsoleClient(const ServerProcess& server,
                                               absl::Duration read_timeout = absl::Seconds(10));

// The session cookie ("arbiter_session=...") that `answer` sets: its first
// Set-Cookie up to the first ';'; empty when the answer sets none.
std::string SessionCookie(const httplib::Result& answer);

// Signs in at `server`'s /login with `token` as the form does: the session
// cookie, empty when the console does not answer 303 with one.
std::string SignIn(const ServerProcess& server, const std::string& token);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_CONSOLE_CLIENT_H_
