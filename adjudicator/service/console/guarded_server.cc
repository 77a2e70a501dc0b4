#include "adjudicator/service/console/guarded_server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/time/clock.h"
#include "adjudicator/service/console/http_limits.h"
#include "ledger/thread_name.h"

namespace arbiter::service::console {

// One connection and where it stands. The loop thread owns it; while a
// worker answers its request (kAnswering) only that worker touches it.
struct GuardedServer::Client {
  enum class Stage {
    kHandshake,  // TLS, until kRequestTime from the accept
    kIdle,       // kept alive, nothing of the next request yet: kIdleTime
    kReading,    // a request under way: kRequestTime from its first byte
    kAnswering,  // on a worker: no deadline, out of the epoll set
    kWriting,    // the answer: kWriteStall without progress
  };
  std::unique_ptr<Connection> connection;
  HostRule hosts;
  Stage stage = Stage::kReading;
  absl::Time deadline = absl::InfiniteFuture();  // in deadlines_ unless infinite
  uint32_t events = 0;                           // epoll interest; 0: not in the set
  int served = 0;                                // requests answered
  bool close_after = false;                      // once the output is sent
  absl::Time idle_since;                         // kIdle: since when
  Keeper keeper;                                 // set by HandOver on the worker
  bool dead = false;
};

namespace {

// Where HandOver leaves its keeper: the request being answered on this
// worker, while httplib answers it; else null.
thread_local GuardedServer::Keeper* handover = nullptr;

// epoll tags of the listening socket and the wake eventfd; a client's tag
// is its Client*.
char listen_tag;
char server_wake_tag;

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

// How long the server stops accepting when it has no descriptor left.
constexpr absl::Duration kAcceptPause = absl::Milliseconds(100);

uint32_t EventsFor(Connection::Io io) {
  return io == Connection::Io::kWantWrite ? EPOLLOUT : EPOLLIN;
}

}  // namespace

GuardedServer::GuardedServer(std::vector<std::string> host_names, TlsContext tls,
                             int max_connections)
    : host_names_(Lower(std::move(host_names))),
      tls_(std::move(tls)),
      max_connections_(max_connections),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  // httplib reads only what the guard framed; these keep its own checks and
  // its Keep-Alive header in line with the guard's.
  set_payload_max_length(kMaxBodyBytes);
  set_keep_alive_max_count(kMaxRequestsPerConnection);
  set_keep_alive_timeout(absl::ToInt64Seconds(kIdleTime));
  // Set on the listening socket, inherited by each accepted one: an answer
  // is sent as soon as it is written, not after the client's delayed ACK of
  // its first part (40 ms on Linux; tests/bench/tile_bench).
  set_tcp_nodelay(true);
  // send(2) is told MSG_NOSIGNAL, but OpenSSL writes with write(2), which
  // raises SIGPIPE on a socket the client closed; the write's error is what
  // the server acts on.
  if (tls_ != nullptr) signal(SIGPIPE, SIG_IGN);
}

GuardedServer::~GuardedServer() {
  Stop();
  close(wake_);
  close(epoll_);
}

void GuardedServer::WidenBacklog() {
  // listen(2) again on a listening socket sets its backlog anew.
  if (const socket_t fd = svr_sock_; fd != INVALID_SOCKET) ::listen(fd, kListenBacklog);
}

void GuardedServer::HandOver(Keeper keeper) {
  if (handover != nullptr) *handover = std::move(keeper);
}

void GuardedServer::Wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
}

void GuardedServer::Stop() {
  stopping_.store(true);
  Wake();
}

void GuardedServer::AwaitRunning() {
  absl::MutexLock lock(&running_mu_);
  auto up = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(running_mu_) { return running_ || ended_; };
  running_mu_.Await(absl::Condition(&up));
}

bool GuardedServer::Listen() {
  const socket_t listening = svr_sock_;
  bool ok = listening != INVALID_SOCKET && epoll_ >= 0 && wake_ >= 0;
  if (ok) {
    fcntl(listening, F_SETFL, fcntl(listening, F_GETFL, 0) | O_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = &listen_tag;
    ok = epoll_ctl(epoll_, EPOLL_CTL_ADD, listening, &ev) == 0;
    ev.data.ptr = &server_wake_tag;
    ok = ok && epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev) == 0;
  }
  if (ok) {
    for (int i = 0; i < kWorkerThreads; ++i) {
      workers_.emplace_back([this] {
        NameThisThread("http");
        Work();
      });
    }
    {
      absl::MutexLock lock(&running_mu_);
      running_ = true;
    }
    Run();
    {
      absl::MutexLock lock(&mu_);
      jobs_.clear();  // requests not begun are not answered
      workers_stop_ = true;
    }
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    clients_.clear();  // every connection closes
    deadlines_.clear();
    closed_.clear();
  }
  if (listening != INVALID_SOCKET) close(svr_sock_.exchange(INVALID_SOCKET));
  absl::MutexLock lock(&running_mu_);
  ended_ = true;
  return ok;
}

void GuardedServer::Run() {
  std::vector<epoll_event> events(256);
  while (!stopping_.load()) {
    // With no connection on a deadline, only a socket or a worker wakes it.
    absl::Time next = accept_again_;
    if (!deadlines_.empty()) next = std::min(next, deadlines_.begin()->first);
    int timeout = -1;
    if (next != absl::InfiniteFuture()) {
      const absl::Duration left = std::max(next - absl::Now(), absl::ZeroDuration());
      timeout = static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
    }
    const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
    for (int k = 0; k < n; ++k) {
      void* tag = events[k].data.ptr;
      if (tag == &listen_tag) {
        Accept();
      } else if (tag == &server_wake_tag) {
        uint64_t count;
        [[maybe_unused]] const ssize_t r = read(wake_, &count, sizeof count);
        std::vector<Client*> done;
        {
          absl::MutexLock lock(&mu_);
          done.swap(finished_);
        }
        for (Client* c : done) Finished(*c);
      } else if (hosting_.load()) {
        absl::MutexLock lock(&guests_mu_);
        if (Guest* guest = GuestOf(tag); guest != nullptr) {
          if (!guest->gone) guest->turn();
        } else if (Client& c = *static_cast<Client*>(tag); !c.dead) {
          OnReady(c);
        }
      } else if (Client& c = *static_cast<Client*>(tag); !c.dead) {
        OnReady(c);
      }
    }
    Expire(absl::Now());
    if (absl::Now() >= accept_again_) WatchListening(true);
    closed_.clear();
  }
}

void GuardedServer::Host(int epoll_fd, std::function<void()> turn) {
  absl::MutexLock lock(&guests_mu_);
  guests_.push_back(std::make_unique<Guest>(Guest{.fd = epoll_fd, .turn = std::move(turn)}));
  hosting_.store(true);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = guests_.back().get();
  epoll_ctl(epoll_, EPOLL_CTL_ADD, epoll_fd, &ev);
}

void GuardedServer::Unhost(int epoll_fd) {
  absl::MutexLock lock(&guests_mu_);  // waits for a turn being taken
  for (auto& guest : guests_) {
    if (guest->fd != epoll_fd || guest->gone) continue;
    epoll_ctl(epoll_, EPOLL_CTL_DEL, epoll_fd, nullptr);
    guest->gone = true;
  }
}

GuardedServer::Guest* GuardedServer::GuestOf(void* tag) {
  for (auto& guest : guests_) {
    if (guest.get() == tag) return guest.get();
  }
  return nullptr;
}

void GuardedServer::Accept() {
  for (;;) {
    const int fd = accept4(svr_sock_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      // Out of descriptors: the listening socket stays readable, and would
      // spin the loop; it is not watched for a while (kAcceptPause).
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        WatchListening(false);
      }
      return;  // EAGAIN: none left
    }
    auto connection = std::make_unique<Connection>(fd, tls_.get());
    if (static_cast<int>(clients_.size()) >= max_connections_ && !MakeRoom()) {
      // A plain answer fits a fresh socket's buffer; TLS has no session to
      // answer in yet.
      if (tls_ == nullptr) {
        connection->Answer(503, Reason(503), "too many connections; try again in a moment");
        bool progressed = false;
        connection->Flush(&progressed);
      }
      continue;  // closed
    }
    auto owned = std::make_unique<Client>();
    Client& c = *owned;
    c.hosts = HostRule{host_names_, connection->local_ip(), connection->loopback()};
    c.connection = std::move(connection);
    clients_.emplace(&c, std::move(owned));
    SetDeadline(c, absl::Now() + kRequestTime);
    if (tls_ != nullptr) {
      c.stage = Client::Stage::kHandshake;
      Handshake(c);
    } else {
      c.stage = Client::Stage::kReading;
      Read(c);
    }
  }
}

void GuardedServer::WatchListening(bool on) {
  if (on == (accept_again_ == absl::InfiniteFuture())) return;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = &listen_tag;
  epoll_ctl(epoll_, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, svr_sock_, &ev);
  accept_again_ = on ? absl::InfiniteFuture() : absl::Now() + kAcceptPause;
}

bool GuardedServer::MakeRoom() {
  Client* idlest = nullptr;
  for (auto& [p, c] : clients_) {
    if (c->dead || c->stage != Client::Stage::kIdle) continue;
    if (idlest == nullptr || c->idle_since < idlest->idle_since) idlest = p;
  }
  if (idlest == nullptr) return false;
  Close(*idlest);
  return true;
}

void GuardedServer::OnReady(Client& c) {
  switch (c.stage) {
    case Client::Stage::kHandshake:
      return Handshake(c);
    case Client::Stage::kIdle:
    case Client::Stage::kReading:
      return Read(c);
    case Client::Stage::kWriting:
      return Flush(c);
    case Client::Stage::kAnswering:
      return;
  }
}

void GuardedServer::Handshake(Client& c) {
  const Connection::Io io = c.connection->Handshake();
  if (io == Connection::Io::kClosed) return Close(c);
  if (io != Connection::Io::kDone) return Watch(c, EventsFor(io));
  c.stage = Client::Stage::kReading;  // the deadline runs on from the accept
  Read(c);
}

void GuardedServer::Read(Client& c) {
  for (;;) {
    const RequestVerdict verdict = ExamineRequest(c.connection->buffered(), c.hosts);
    if (verdict.kind == RequestVerdict::Kind::kRefused) {
      return Refuse(c, verdict.status, verdict.message);
    }
    if (verdict.kind == RequestVerdict::Kind::kComplete) {
      c.connection->Frame(verdict.size);
      c.stage = Client::Stage::kAnswering;
      Watch(c, 0);
      SetDeadline(c, absl::InfiniteFuture());
      {
        absl::MutexLock lock(&mu_);
        jobs_.push_back(&c);
      }
      return;
    }
    const Connection::Io io = c.connection->ReadSome();
    if (io == Connection::Io::kClosed) return Close(c);
    if (io != Connection::Io::kDone) return Watch(c, EventsFor(io));
    if (c.stage == Client::Stage::kIdle) {
      c.stage = Client::Stage::kReading;
      SetDeadline(c, absl::Now() + kRequestTime);
    }
  }
}

void GuardedServer::Refuse(Client& c, int status, absl::string_view message) {
  c.connection->Answer(status, Reason(status), message);
  c.close_after = true;
  c.stage = Client::Stage::kWriting;
  SetDeadline(c, absl::Now() + kRefusalStall);
  Flush(c);
}

void GuardedServer::Flush(Client& c) {
  bool progressed = false;
  const Connection::Io io = c.connection->Flush(&progressed);
  if (io == Connection::Io::kClosed) return Close(c);
  if (io == Connection::Io::kDone) {
    if (c.close_after) return Close(c);
    return AwaitNext(c);
  }
  if (progressed && !c.close_after) SetDeadline(c, absl::Now() + kWriteStall);
  Watch(c, EventsFor(io));
}

void GuardedServer::AwaitNext(Client& c) {
  c.stage = Client::Stage::kIdle;
  c.idle_since = absl::Now();
  SetDeadline(c, c.idle_since + kIdleTime);
  // The next request may be buffered already (pipelined, or held by TLS).
  Read(c);
}

void GuardedServer::Finished(Client& c) {
  ++c.served;
  if (c.keeper) {
    Keeper keeper = std::move(c.keeper);
    std::unique_ptr<Connection> connection = std::move(c.connection);
    c.keeper = nullptr;
    Close(c);  // the Client only: its connection goes on
    connection->Quiet();
    keeper(std::move(connection));
    return;
  }
  c.stage = Client::Stage::kWriting;
  SetDeadline(c, absl::Now() + kWriteStall);
  Flush(c);
}

void GuardedServer::Expire(absl::Time now) {
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
    Client& c = *deadlines_.begin()->second;
    SetDeadline(c, absl::InfiniteFuture());
    // A request begun and not whole in time is told so; anything else
    // (a handshake, an idle or stalled connection) just closes.
    if (c.stage == Client::Stage::kReading && !c.connection->buffered().empty()) {
      Refuse(c, 408, "the request did not arrive in time");
    } else {
      Close(c);
    }
  }
}

void GuardedServer::Watch(Client& c, uint32_t events) {
  if (events == c.events || c.connection == nullptr) return;
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = &c;
  const int fd = c.connection->socket();
  if (events == 0) {
    // Out of the set: a hang-up is reported whatever the interest, and
    // would wake the loop again and again while a worker answers.
    epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  } else {
    epoll_ctl(epoll_, c.events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
  }
  c.events = events;
}

void GuardedServer::SetDeadline(Client& c, absl::Time at) {
  if (c.deadline != absl::InfiniteFuture()) deadlines_.erase({c.deadline, &c});
  c.deadline = at;
  if (at != absl::InfiniteFuture()) deadlines_.insert({at, &c});
}

void GuardedServer::Close(Client& c) {
  if (c.dead) return;
  Watch(c, 0);
  SetDeadline(c, absl::InfiniteFuture());
  c.dead = true;
  auto it = clients_.find(&c);
  if (it == clients_.end()) return;
  closed_.push_back(std::move(it->second));  // freed at the end of this turn
  clients_.erase(it);
  closed_.back()->connection.reset();  // closes the socket
}

void GuardedServer::Work() {
  for (;;) {
    Client* c = nullptr;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return workers_stop_ || !jobs_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (jobs_.empty()) return;
      c = jobs_.front();
      jobs_.pop_front();
    }
    Answer(*c);
    {
      absl::MutexLock lock(&mu_);
      finished_.push_back(c);
    }
    Wake();
  }
}

void GuardedServer::Answer(Client& c) {
  Connection& connection = *c.connection;
  const bool last = c.served + 1 == kMaxRequestsPerConnection;
  bool closed = false;
  handover = &c.keeper;
  const bool ok = process_request(connection, last, closed, nullptr);
  handover = nullptr;
  connection.Consume();
  c.close_after = !ok || closed || last;
}

}  // namespace arbiter::service::console
