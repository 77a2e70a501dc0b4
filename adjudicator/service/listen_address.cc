#include "adjudicator/service/listen_address.h"

#include <errno.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "absl/strings/str_cat.h"

namespace arbiter::service {
namespace {

// The errno of binding a fresh socket (SO_REUSEADDR, as the listeners set
// it) to `host`:`port`; 0 when it binds.
int BindError(std::string host, const std::string& port) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found) != 0) {
    return EADDRNOTAVAIL;
  }
  int err = 0;
  for (addrinfo* a = found; a != nullptr && err == 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (bind(fd, a->ai_addr, a->ai_addrlen) != 0) err = errno;
    close(fd);
  }
  freeaddrinfo(found);
  return err;
}

}  // namespace

absl::Status CannotListen(const std::string& flag, const std::string& listen) {
  if (absl::Status s = CheckBindable(flag, listen); !s.ok()) return s;
  return absl::UnavailableError(absl::StrCat("cannot listen on ", listen, " (", flag, ")"));
}

absl::Status CheckBindable(const std::string& flag, const std::string& listen) {
  const size_t colon = listen.rfind(':');
  const int err = colon == std::string::npos
                      ? EINVAL
                      : BindError(listen.substr(0, colon), listen.substr(colon + 1));
  if (err == EADDRINUSE) {
    return absl::UnavailableError(
        absl::StrCat("address in use: ", listen, " (", flag,
                     "): another process listens there, perhaps another arbiter serve; stop it "
                     "or choose another port"));
  }
  if (err == 0) return absl::OkStatus();
  return absl::UnavailableError(
      absl::StrCat("cannot listen on ", listen, " (", flag, "): ", std::strerror(err)));
}

}  // namespace arbiter::service
