#include "tests/support/console_client.h"

#include "absl/strings/str_cat.h"

namespace arbiter::testing {

std::unique_ptr<httplib::Client> ConsoleClient(const ServerProcess& server,
                                               absl::Duration read_timeout) {
  auto client =
      std::make_unique<httplib::Client>(absl::StrCat("http://", server.console_address()));
  client->set_connection_timeout(5);
  client->set_read_timeout(absl::ToChronoSeconds(read_timeout));
  return client;
}

std::string SessionCookie(const httplib::Result& answer) {
  if (!answer) return "";
  const std::string set = answer->get_header_value("Set-Cookie");
  return set.substr(0, set.find(';'));
}

std::string SignIn(const ServerProcess& server, const std::string& token) {
  httplib::Result in = ConsoleClient(server)->Post("/login", httplib::Params{{"token", token}});
  if (!in || in->status != 303) return "";
  return SessionCookie(in);
}

}  // namespace arbiter::testing
