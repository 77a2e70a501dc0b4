// The console's HTTP server: cpp-httplib's routing and handlers, behind a
// guard that owns every connection. The guard reads each request whole
// itself, under the bounds of http_limits.h (head size and lines, body
// size, deadlines, the number of connections), checks its Host
// (request_head.h), and only then hands it to httplib; so no client can make
// the server read an unbounded body or header list, or hold its threads by
// sending slowly. With a TLS context it serves TLS (http_tls.h).
//
// Connections hold no thread. One loop thread (the one that calls Listen)
// accepts them and, woken by epoll, does every step that touches a socket
// without waiting: the TLS handshake, reading a request, sending an answer,
// waiting on a kept-alive connection; one timer per connection (its
// current deadline) cuts off a slow one. A whole request goes to one of
// kWorkerThreads workers, which runs httplib's routing and the handler
// (httplib::Server::process_request on the request's bytes); the answer
// httplib writes is kept as output and the loop sends it. Idle, the loop
// sleeps until a socket or the workers wake it.
//
// An answer with no end (a page following the live feed) does not stay:
// its content provider hands the connection over (HandOver) once httplib
// has written the answer's head, and the loop gives it, the head unsent
// included, to its keeper (followers.h holds such pages on its loops, the
// first of which takes its turns on this loop's thread: LoopHost).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/http_tls.h"
#include "adjudicator/service/console/loop_host.h"
#include "adjudicator/service/console/request_head.h"
#include "httplib.h"

namespace arbiter::service::console {

class GuardedServer : public httplib::Server, public LoopHost {
 public:
  // `host_names`: the names besides the connection's own address that a
  // request's Host may carry (`--http-host`). `tls` null: plaintext.
  // `max_connections`: open at once (file_budget.h), beyond which a new one
  // closes the idlest kept-alive one or is answered 503.
  GuardedServer(std::vector<std::string> host_names, TlsContext tls,
                int max_connections = kMaxConnections);
  ~GuardedServer() override;

  bool secure() const { return tls_ != nullptr; }
  // The --http-host names, lower case.
  const std::vector<std::string>& host_names() const { return host_names_; }

  // Once bound (httplib's bind_to_port): lets kListenBacklog connections
  // wait for accept.
  void WidenBacklog();
  // Serves on the bound socket, on the calling thread (the loop), with the
  // workers, until Stop(); false when it could not start. AwaitRunning
  // returns once the loop runs or Listen has returned: a condition, not a
  // poll.
  bool Listen();
  void AwaitRunning();
  // Ends Listen(): the connections close, the workers finish the requests
  // they answer. Idempotent; from any thread.
  void Stop();

  // The connection's next owner, given it with the answer's head written
  // (perhaps not yet sent: Connection::TakeOutput) and nothing more of the
  // request to read.
  using Keeper = std::function<void(std::unique_ptr<Connection>)>;
  // Called from a handler's chunked content provider, on the worker
  // answering the request, which then returns false so that httplib writes
  // nothing more: once httplib is done, the connection goes to `keeper`
  // instead of being served further or closed. Off such a thread it does
  // nothing (the connection closes).
  static void HandOver(Keeper keeper);

  // LoopHost: the followers' loops taking their turns on this loop's thread.
  void Host(int epoll_fd, std::function<void()> turn) override;
  void Unhost(int epoll_fd) override;

 private:
  struct Client;
  struct Guest {
    int fd = -1;
    std::function<void()> turn;
    bool gone = false;  // unhosted (kept, so that a pending event's tag stays valid)
  };
  // The guest a tag names, or null (a client's tag).
  Guest* GuestOf(void* tag) ABSL_EXCLUSIVE_LOCKS_REQUIRED(guests_mu_);
  using Deadline = std::pair<absl::Time, Client*>;

  // The loop's steps, each on the loop thread.
  void Run();
  void Accept();
  // Watches the listening socket again, or stops for a while (no
  // descriptor left to accept with).
  void WatchListening(bool on);
  // Makes room for one more connection (closes the idlest kept-alive one);
  // false when every open one is busy.
  bool MakeRoom();
  void OnReady(Client& client);
  void Handshake(Client& client);
  // Reads until a request is whole (then a worker answers it), refused, or
  // the socket has nothing more now.
  void Read(Client& client);
  void Refuse(Client& client, int status, absl::string_view message);
  void Flush(Client& client);
  // After an answer: the next request on a kept-alive connection.
  void AwaitNext(Client& client);
  void Finished(Client& client);
  void Expire(absl::Time now);
  // Epoll interest in the client's socket: `events` (EPOLLIN, EPOLLOUT), or
  // none (0: out of the set, while a worker answers).
  void Watch(Client& client, uint32_t events);
  void SetDeadline(Client& client, absl::Time at);
  void Close(Client& client);

  // The workers'.
  void Work();
  void Answer(Client& client);
  void Wake();

  const std::vector<std::string> host_names_;
  const TlsContext tls_;
  const int max_connections_;
  const int epoll_;
  const int wake_;  // an eventfd: a worker finished, or Stop()
  std::atomic<bool> stopping_{false};
  // The loop thread's own.
  absl::flat_hash_map<Client*, std::unique_ptr<Client>> clients_;
  std::set<Deadline> deadlines_;
  absl::Time accept_again_ = absl::InfiniteFuture();  // while not accepting
  std::vector<std::unique_ptr<Client>> closed_;       // freed at the end of a turn

  absl::Mutex mu_;
  std::deque<Client*> jobs_ ABSL_GUARDED_BY(mu_);       // whole requests for the workers
  std::vector<Client*> finished_ ABSL_GUARDED_BY(mu_);  // answered, for the loop
  bool workers_stop_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;

  // Held while a guest takes its turn, so that Unhost waits for it.
  absl::Mutex guests_mu_;
  std::vector<std::unique_ptr<Guest>> guests_ ABSL_GUARDED_BY(guests_mu_);
  std::atomic<bool> hosting_{false};

  absl::Mutex running_mu_;
  bool running_ ABSL_GUARDED_BY(running_mu_) = false;
  bool ended_ ABSL_GUARDED_BY(running_mu_) = false;  // Listen() returned
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_GUARDED_SERVER_H_
