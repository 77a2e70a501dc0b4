// One client connection of the console's server, plaintext or TLS, as the
// httplib::Stream that cpp-httplib reads a request from and writes its
// answer to. The socket is non-blocking and every wait has a deadline, so
// no client holds a server thread longer than http_limits.h allows.
//
// Reading is framed: the guard (guarded_server.h) buffers a whole request
// itself, checks it (request_head.h), then Frame()s it; httplib reads only
// those bytes (0, end of stream, beyond them) and never touches the socket.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_

#include <openssl/ssl.h>

#include <algorithm>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "httplib.h"

namespace arbiter::service::console {

class Connection : public httplib::Stream {
 public:
  // Takes `fd` (closed on destruction); `tls` null for plaintext.
  Connection(int fd, SSL_CTX* tls);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  enum class Read { kMore, kClosed, kTimedOut };
  // TLS only: completes the handshake by `deadline`.
  Read Handshake(absl::Time deadline);
  // Appends what the client sends next to buffered(), waiting until
  // `deadline` for it.
  Read ReadMore(absl::Time deadline);
  // Waits until the client sends something, at most until `deadline`, or
  // until `give_up()` (asked every 100 ms) says to stop; whether it did.
  template <typename Fn>
  bool AwaitRequest(absl::Time deadline, Fn give_up) {
    while (buffered().empty()) {
      if (absl::Now() >= deadline || give_up()) return false;
      if (ReadMore(std::min(deadline, absl::Now() + absl::Milliseconds(100))) == Read::kClosed) {
        return false;
      }
    }
    return true;
  }
  // What the client has sent and httplib has not been given yet.
  absl::string_view buffered() const;
  // Gives httplib the next `size` buffered bytes to read; Consume() drops
  // them once it has answered.
  void Frame(size_t size);
  void Consume();
  // Writes a whole answer of our own (a refusal), then the connection is
  // to be closed.
  void Answer(int status, absl::string_view reason, absl::string_view message);
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
  // Waits for the socket to be readable (or writable) until `deadline`.
  bool Await(bool write, absl::Time deadline) const;
  bool WriteAll(absl::string_view bytes, absl::Duration stall);

  int fd_;
  SSL* ssl_ = nullptr;
  std::string buffer_;
  size_t read_ = 0;   // how far httplib has read the frame
  size_t frame_ = 0;  // the frame's end in buffer_
  std::string local_ip_;
  int local_port_ = 0;
  bool loopback_ = false;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_CONNECTION_H_
