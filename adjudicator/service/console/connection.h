// One client connection of the console's server, plaintext or TLS, as the
// httplib::Stream that cpp-httplib reads a request from and writes its
// answer to. The socket is non-blocking and nothing here waits: the
// server's loop (guarded_server.h) reads, handshakes and writes when epoll
// says the socket is ready, and holds each step to the deadlines of
// http_limits.h.
//
// Reading is framed: the loop buffers a whole request itself, checks it
// (request_head.h), then Frame()s it; httplib reads only those bytes (0, end
// of stream, beyond them) and never touches the socket. Writing is
// buffered: what httplib writes (on a worker thread) is kept as output,
// which the loop sends as the socket takes it.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_

#include <openssl/ssl.h>

#include <string>

#include "absl/strings/string_view.h"
#include "httplib.h"

namespace arbiter::service::console {

class Connection : public httplib::Stream {
 public:
  // Takes `fd` (closed on destruction); `tls` null for plaintext.
  Connection(int fd, SSL_CTX* tls);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // What a step that does not wait came to: done, or it needs the socket
  // readable (or writable) first, or the connection broke or closed.
  enum class Io { kDone, kWantRead, kWantWrite, kClosed };
  // TLS only: the handshake, as far as it goes now.
  Io Handshake();
  // Appends what the client sent to buffered(): kDone once some came.
  Io ReadSome();
  // What the client has sent and httplib has not been given yet.
  absl::string_view buffered() const;
  // Gives httplib the next `size` buffered bytes to read; Consume() drops
  // them once it has answered.
  void Frame(size_t size);
  void Consume();
  // Adds a whole answer of our own (a refusal) to the output; the
  // connection is to be closed once it is sent.
  void Answer(int status, absl::string_view reason, absl::string_view message);
  // Sends what the socket takes of the output now: kDone once all is sent;
  // `*progressed` when it took some.
  Io Flush(bool* progressed);
  bool has_output() const { return sent_ < out_.size(); }
  // The output not yet sent, which the caller sends from now on.
  std::string TakeOutput();
  // Without waiting: writes what the socket takes of `bytes` now. The
  // bytes taken; 0 when it takes none now (retry with the same bytes once
  // the socket is writable, or readable when `*want_read`: TLS); -1 once
  // the connection broke.
  ssize_t WriteNow(absl::string_view bytes, bool* want_read);
  // Without waiting: reads and drops what the client sent (a page
  // following the live feed sends nothing more); false once it closed.
  bool DropInput();
  // Frees what reading requests took, for a connection that is only
  // written to from now on (a parked page: followers.h).
  void Quiet();
  // The address the client connected to, and whether it is loopback.
  const std::string& local_ip() const { return local_ip_; }
  bool loopback() const { return loopback_; }

  // httplib::Stream
  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  // What SSL_get_error makes of a TLS call's result `r`.
  Io TlsWants(int r) const;

  int fd_;
  SSL* ssl_ = nullptr;
  std::string buffer_;
  size_t read_ = 0;   // how far httplib has read the frame
  size_t frame_ = 0;  // the frame's end in buffer_
  std::string out_;   // written by httplib, to be sent
  size_t sent_ = 0;   // of out_
  std::string local_ip_;
  int local_port_ = 0;
  bool loopback_ = false;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_
