// An event loop that carries other epoll sets as guests on its own thread:
// the console's loop (guarded_server.h) carries the followers' loops
// (followers.h), so that a page following a feed costs no thread of its
// own and a loop per core costs one thread fewer. An epoll set is itself a
// descriptor, readable while it has events: the host watches it and lets
// the guest take a turn, without waiting, whenever it is.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOOP_HOST_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOOP_HOST_H_

#include <functional>

namespace arbiter::service::console {

class LoopHost {
 public:
  virtual ~LoopHost() = default;
  // Watches `epoll_fd` and calls `turn` on the host's thread whenever it is
  // readable, until Unhost(epoll_fd).
  virtual void Host(int epoll_fd, std::function<void()> turn) = 0;
  // Once it returns, `turn` is not running and is never called again.
  virtual void Unhost(int epoll_fd) = 0;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOOP_HOST_H_
