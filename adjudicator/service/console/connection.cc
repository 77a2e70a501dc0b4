#include "adjudicator/service/console/connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/request_head.h"

namespace arbiter::service::console {
namespace {

// "1.2.3.4" or "::1" and the port of a socket address.
void Describe(const sockaddr_storage& a, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (a.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&a);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    port = ntohs(in->sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&a);
    inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    port = ntohs(in6->sin6_port);
  }
  ip = text;
}

int Millis(absl::Time deadline) {
  const absl::Duration left = deadline - absl::Now();
  if (left <= absl::ZeroDuration()) return 0;
  return static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
}

}  // namespace

Connection::Connection(int fd, SSL_CTX* tls) : fd_(fd) {
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL, 0) | O_NONBLOCK);
  sockaddr_storage local{};
  socklen_t len = sizeof local;
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &len) == 0) {
    Describe(local, local_ip_, local_port_);
  }
  loopback_ = IsLoopbackIp(local_ip_);
  if (tls != nullptr) {
    ssl_ = SSL_new(tls);
    if (ssl_ != nullptr) SSL_set_fd(ssl_, fd_);
  }
}

Connection::~Connection() {
  if (ssl_ != nullptr) {
    SSL_shutdown(ssl_);  // a close_notify if it fits; never waits
    SSL_free(ssl_);
    ERR_clear_error();  // a client's failed handshake is not this thread's next error
  }
  shutdown(fd_, SHUT_RDWR);
  close(fd_);
}

bool Connection::Await(bool write, absl::Time deadline) const {
  pollfd p{fd_, static_cast<short>(write ? POLLOUT : POLLIN), 0};
  for (;;) {
    const int n = poll(&p, 1, Millis(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    // A hang-up still lets a reader see the end of the stream.
    return write ? (p.revents & POLLOUT) != 0 && (p.revents & (POLLERR | POLLHUP)) == 0 : true;
  }
}

Connection::Read Connection::Handshake(absl::Time deadline) {
  if (ssl_ == nullptr) return Read::kClosed;
  for (;;) {
    const int r = SSL_accept(ssl_);
    if (r == 1) return Read::kMore;
    const int e = SSL_get_error(ssl_, r);
    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return Read::kClosed;
    if (!Await(e == SSL_ERROR_WANT_WRITE, deadline)) return Read::kTimedOut;
  }
}

Connection::Read Connection::ReadMore(absl::Time deadline) {
  char chunk[4096];
  for (;;) {
    ssize_t n;
    bool want_write = false;
    if (ssl_ != nullptr) {
      n = SSL_read(ssl_, chunk, sizeof chunk);
      if (n <= 0) {
        const int e = SSL_get_error(ssl_, static_cast<int>(n));
        if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return Read::kClosed;
        want_write = e == SSL_ERROR_WANT_WRITE;
      }
    } else {
      n = recv(fd_, chunk, sizeof chunk, 0);
      if (n == 0) return Read::kClosed;
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        return Read::kClosed;
      }
    }
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return Read::kMore;
    }
    if (!Await(want_write, deadline)) return Read::kTimedOut;
  }
}

absl::string_view Connection::buffered() const { return absl::string_view(buffer_).substr(frame_); }

void Connection::Frame(size_t size) {
  read_ = frame_;
  frame_ += size;
}

void Connection::Consume() {
  buffer_.erase(0, frame_);
  read_ = frame_ = 0;
}

ssize_t Connection::WriteNow(absl::string_view bytes, bool* want_read) {
  *want_read = false;
  for (;;) {
    if (ssl_ != nullptr) {
      const int n = SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()));
      if (n > 0) return n;
      const int e = SSL_get_error(ssl_, n);
      if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return -1;
      *want_read = e == SSL_ERROR_WANT_READ;
      return 0;
    }
    const ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  }
}

bool Connection::WriteAll(absl::string_view bytes, absl::Duration stall) {
  while (!bytes.empty()) {
    bool want_read = false;
    const ssize_t n = WriteNow(bytes, &want_read);
    if (n < 0) return false;
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (!Await(!want_read, absl::Now() + stall)) return false;
  }
  return true;
}

bool Connection::DropInput() {
  char chunk[4096];
  for (;;) {
    if (ssl_ != nullptr) {
      const int n = SSL_read(ssl_, chunk, sizeof chunk);
      if (n > 0) continue;
      const int e = SSL_get_error(ssl_, n);
      return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
    }
    const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) continue;
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

void Connection::Quiet() {
  std::string().swap(buffer_);
  read_ = frame_ = 0;
  // OpenSSL frees a connection's read and write buffers (about 34 KiB)
  // while it has nothing in them.
  if (ssl_ != nullptr) SSL_set_mode(ssl_, SSL_MODE_RELEASE_BUFFERS);
}

void Connection::Answer(int status, absl::string_view reason, absl::string_view message) {
  const std::string body = absl::StrCat(message, "\n");
  WriteAll(
      absl::StrCat("HTTP/1.1 ", status, " ", reason,
                   "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ", body.size(),
                   "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n", body),
      absl::Seconds(1));
}

bool Connection::is_readable() const { return read_ < frame_; }

bool Connection::is_writable() const { return Await(true, absl::Now() + kWriteStall); }

ssize_t Connection::read(char* ptr, size_t size) {
  const size_t n = std::min(size, frame_ - read_);
  buffer_.copy(ptr, n, read_);
  read_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t Connection::write(const char* ptr, size_t size) {
  return WriteAll(absl::string_view(ptr, size), kWriteStall) ? static_cast<ssize_t>(size) : -1;
}

void Connection::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage peer{};
  socklen_t len = sizeof peer;
  ip.clear();
  port = 0;
  if (getpeername(fd_, reinterpret_cast<sockaddr*>(&peer), &len) == 0) Describe(peer, ip, port);
}

void Connection::get_local_ip_and_port(std::string& ip, int& port) const {
  ip = local_ip_;
  port = local_port_;
}

}  // namespace arbiter::service::console
