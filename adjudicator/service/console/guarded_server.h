// The console's HTTP server: cpp-httplib's routing and handlers, behind a
// guard that owns every connection. The guard reads each request whole
// itself, under the bounds of http_limits.h (head size and lines, body
// size, deadlines, the number of connections), checks its Host
// (request_head.h), and only then hands it to httplib; so no client can make
// the server read an unbounded body or header list, or hold its threads by
// sending slowly. With a TLS context it serves TLS (http_tls.h).
//
// Connections are served by kServerThreads threads; a connection that
// waits for one is dropped once kMaxWaitingConnections wait, and a
// kept-alive connection gives its thread up as soon as another waits.
//
// An answer with no end (a page following the live feed) does not keep its
// thread: its content provider hands the connection over (HandOver) once
// httplib has written the answer's head, and the thread goes back to the
// pool (followers.h holds such pages on one thread for all).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/http_tls.h"
#include "httplib.h"

namespace arbiter::service::console {

class GuardedServer : public httplib::Server {
 public:
  // `host_names`: the names besides the connection's own address that a
  // request's Host may carry (`--http-host`). `tls` null: plaintext.
  GuardedServer(std::vector<std::string> host_names, TlsContext tls);

  bool secure() const { return tls_ != nullptr; }
  // The --http-host names, lower case.
  const std::vector<std::string>& host_names() const { return host_names_; }

  // Once bound: lets kListenBacklog connections wait for accept.
  void WidenBacklog();
  // httplib's listen_after_bind(), for the thread that serves; AwaitRunning
  // returns once it runs its accept loop (from when stop() ends it) or has
  // returned: a condition, not a poll of is_running().
  bool Listen();
  void AwaitRunning();

  // The connection's next owner, given it with the answer's head written
  // and nothing more of the request to read.
  using Keeper = std::function<void(std::unique_ptr<Connection>)>;
  // Called from a handler's chunked content provider, on the thread
  // answering the request, which then returns false so that httplib writes
  // nothing more: once httplib is done, the connection goes to `keeper`
  // instead of being served further or closed. Off such a thread it does
  // nothing (the connection closes).
  static void HandOver(Keeper keeper);

 private:
  // Called by httplib's accept loop for each connection accepted.
  bool process_and_close_socket(socket_t sock) override;
  // Serves the requests of one connection until it closes or breaks a bound.
  // Hands `connection` over (HandOver) or leaves it to be closed.
  void Serve(std::unique_ptr<Connection>& connection, absl::Time deadline);
  // Whether stop() was called (httplib closes its listening socket).
  bool stopping() const { return svr_sock_ == INVALID_SOCKET; }

  const std::vector<std::string> host_names_;
  const TlsContext tls_;
  std::atomic<int> waiting_{0};  // connections accepted, not yet on a thread
  absl::Mutex running_mu_;
  // httplib makes its task queue once running, just before its accept loop.
  bool running_ ABSL_GUARDED_BY(running_mu_) = false;
  bool ended_ ABSL_GUARDED_BY(running_mu_) = false;  // Listen() returned
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_
