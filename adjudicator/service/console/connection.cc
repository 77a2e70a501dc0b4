#include "adjudicator/service/console/connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
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

Connection::Io Connection::TlsWants(int r) const {
  switch (SSL_get_error(ssl_, r)) {
    case SSL_ERROR_WANT_READ:
      return Io::kWantRead;
    case SSL_ERROR_WANT_WRITE:
      return Io::kWantWrite;
    default:
      return Io::kClosed;
  }
}

Connection::Io Connection::Handshake() {
  if (ssl_ == nullptr) return Io::kClosed;
  // One thread serves every connection: another's failed handshake must
  // not be read as this one's error.
  ERR_clear_error();
  const int r = SSL_accept(ssl_);
  return r == 1 ? Io::kDone : TlsWants(r);
}

Connection::Io Connection::ReadSome() {
  char chunk[4096];
  for (;;) {
    if (ssl_ != nullptr) {
      ERR_clear_error();
      const int n = SSL_read(ssl_, chunk, sizeof chunk);
      if (n <= 0) return TlsWants(n);
      buffer_.append(chunk, static_cast<size_t>(n));
      return Io::kDone;
    }
    const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return Io::kDone;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? Io::kWantRead : Io::kClosed;
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
      ERR_clear_error();
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

Connection::Io Connection::Flush(bool* progressed) {
  *progressed = false;
  while (has_output()) {
    bool want_read = false;
    const ssize_t n = WriteNow(absl::string_view(out_).substr(sent_), &want_read);
    if (n < 0) return Io::kClosed;
    if (n == 0) return want_read ? Io::kWantRead : Io::kWantWrite;
    *progressed = true;
    sent_ += static_cast<size_t>(n);
  }
  std::string().swap(out_);  // an answer's bytes are not kept with an idle connection
  sent_ = 0;
  return Io::kDone;
}

std::string Connection::TakeOutput() {
  std::string rest = out_.substr(sent_);
  std::string().swap(out_);
  sent_ = 0;
  return rest;
}

bool Connection::DropInput() {
  char chunk[4096];
  for (;;) {
    if (ssl_ != nullptr) {
      ERR_clear_error();
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
  absl::StrAppend(&out_, "HTTP/1.1 ", status, " ", reason,
                  "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ", body.size(),
                  "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n", body);
}

bool Connection::is_readable() const { return read_ < frame_; }

// Output is buffered: the loop sends it, and cuts off a client that takes
// none of it for kWriteStall.
bool Connection::is_writable() const { return true; }

ssize_t Connection::read(char* ptr, size_t size) {
  const size_t n = std::min(size, frame_ - read_);
  buffer_.copy(ptr, n, read_);
  read_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t Connection::write(const char* ptr, size_t size) {
  out_.append(ptr, size);
  return static_cast<ssize_t>(size);
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
