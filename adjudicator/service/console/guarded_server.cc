#include "adjudicator/service/console/guarded_server.h"

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/time/clock.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/request_head.h"
#include "ledger/thread_name.h"

namespace arbiter::service::console {
namespace {

// What the accept loop knew of the connection a thread takes up: when it
// was accepted, and whether it must be refused at once (too many waiting).
struct Accepted {
  absl::Time at;
  bool shed = false;
};
thread_local Accepted accepted;

// Where HandOver leaves its keeper: the request being answered on this
// thread, while httplib answers it; else null.
thread_local GuardedServer::Keeper* handover = nullptr;

// httplib's task queue, as a pool of threads with a bounded wait: a
// connection beyond kMaxWaitingConnections is refused in the accept loop
// (its task runs there, marked shed), never queued.
class ConnectionPool : public httplib::TaskQueue {
 public:
  explicit ConnectionPool(std::atomic<int>* waiting) : waiting_(waiting) {
    for (int i = 0; i < kServerThreads; ++i) {
      threads_.emplace_back([this] {
        NameThisThread("http");
        Work();
      });
    }
  }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (static_cast<int>(jobs_.size()) < kMaxWaitingConnections) {
        jobs_.push_back({std::move(fn), absl::Now()});
        waiting_->store(static_cast<int>(jobs_.size()));
        ready_.notify_one();
        return;
      }
    }
    accepted = Accepted{absl::Now(), true};
    fn();
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  struct Job {
    std::function<void()> fn;
    absl::Time at;
  };

  void Work() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
        waiting_->store(static_cast<int>(jobs_.size()));
      }
      accepted = Accepted{job.at, false};
      job.fn();
    }
  }

  std::atomic<int>* waiting_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

const char* Reason(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 421:
      return "Misdirected Request";
    case 431:
      return "Request Header Fields Too Large";
    default:
      return "Service Unavailable";
  }
}

std::vector<std::string> Lower(std::vector<std::string> names) {
  for (std::string& n : names) n = HostName(n);
  return names;
}

}  // namespace

bool GuardedServer::Listen() {
  const bool ok = listen_after_bind();
  absl::MutexLock lock(&running_mu_);
  ended_ = true;
  return ok;
}

void GuardedServer::AwaitRunning() {
  absl::MutexLock lock(&running_mu_);
  auto up = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(running_mu_) { return running_ || ended_; };
  running_mu_.Await(absl::Condition(&up));
}

GuardedServer::GuardedServer(std::vector<std::string> host_names, TlsContext tls)
    : host_names_(Lower(std::move(host_names))), tls_(std::move(tls)) {
  new_task_queue = [this] {
    absl::MutexLock lock(&running_mu_);
    running_ = true;
    return new ConnectionPool(&waiting_);
  };
  // httplib reads only what the guard framed; these keep its own checks and
  // its Keep-Alive header in line with the guard's.
  set_payload_max_length(kMaxBodyBytes);
  set_keep_alive_max_count(kMaxRequestsPerConnection);
  set_keep_alive_timeout(absl::ToInt64Seconds(kIdleTime));
  // httplib sends a response's head and body in two writes: without
  // TCP_NODELAY (set on the listening socket, inherited by each accepted
  // one) the body waits for the client's delayed ACK of the head, 40 ms on
  // Linux, for every answer on a kept-alive connection (tests/bench/
  // tile_bench: 22 requests/s per connection before, README "Serving tiles").
  set_tcp_nodelay(true);
  // OpenSSL writes with write(2), which raises SIGPIPE on a socket the
  // client closed; the write's error is what the server acts on.
  if (tls_ != nullptr) signal(SIGPIPE, SIG_IGN);
}

void GuardedServer::WidenBacklog() {
  // listen(2) again on a listening socket sets its backlog anew.
  if (const socket_t fd = svr_sock_; fd != INVALID_SOCKET) ::listen(fd, kListenBacklog);
}

void GuardedServer::HandOver(Keeper keeper) {
  if (handover != nullptr) *handover = std::move(keeper);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  const Accepted job = accepted;
  auto connection = std::make_unique<Connection>(sock, tls_.get());
  if (job.shed) {
    if (tls_ == nullptr) {
      connection->Answer(503, Reason(503), "too many connections; try again in a moment");
    }
    return false;
  }
  // A connection that waited for a thread has sent its request by now, if
  // it is not a slow one: a short grace, not a fresh deadline.
  Serve(connection, std::max(job.at + kRequestTime, absl::Now() + kLateGrace));
  return true;
}

void GuardedServer::Serve(std::unique_ptr<Connection>& owned, absl::Time deadline) {
  Connection& connection = *owned;
  if (tls_ != nullptr && connection.Handshake(deadline) != Connection::Read::kMore) return;
  const HostRule hosts{host_names_, connection.local_ip(), connection.loopback()};
  for (int served = 0; served < kMaxRequestsPerConnection; ++served) {
    if (served > 0) {
      // Kept alive: the thread is given up when another connection needs it.
      if (!connection.AwaitRequest(absl::Now() + kIdleTime,
                                   [&] { return waiting_.load() > 0 || stopping(); })) {
        return;
      }
      deadline = absl::Now() + kRequestTime;
    }
    RequestVerdict verdict;
    for (;;) {
      verdict = ExamineRequest(connection.buffered(), hosts);
      if (verdict.kind != RequestVerdict::Kind::kIncomplete) break;
      // In slices, so that a stopping server does not wait out a deadline.
      const Connection::Read r =
          connection.ReadMore(std::min(deadline, absl::Now() + absl::Milliseconds(100)));
      if (r == Connection::Read::kClosed || stopping()) return;
      if (r == Connection::Read::kTimedOut && absl::Now() >= deadline) {
        if (!connection.buffered().empty()) {
          connection.Answer(408, Reason(408), "the request did not arrive in time");
        }
        return;
      }
    }
    if (verdict.kind == RequestVerdict::Kind::kRefused) {
      connection.Answer(verdict.status, Reason(verdict.status), verdict.message);
      return;
    }
    connection.Frame(verdict.size);
    bool closed = false;
    const bool last = served + 1 == kMaxRequestsPerConnection;
    Keeper keeper;
    handover = &keeper;
    const bool ok = process_request(connection, last, closed, nullptr);
    handover = nullptr;
    connection.Consume();
    if (keeper) {
      connection.Quiet();
      keeper(std::move(owned));
      return;
    }
    if (!ok || closed) return;
  }
}

}  // namespace arbiter::service::console
