// Names the calling thread, so that `ps -L`, a debugger and /proc/PID/task
// tell the project's threads apart (and a test can count what each does
// while the server is idle). Every thread the project starts calls it first.
// Linux keeps at most 15 bytes of a name: longer ones are cut, not refused.
#ifndef ARBITER_LEDGER_THREAD_NAME_H_
#define ARBITER_LEDGER_THREAD_NAME_H_

#include <pthread.h>

#include <string>

namespace arbiter {

// The project's thread names all start with this, so they are found among
// the libraries' own (gRPC's, the HTTP library's).
inline constexpr char kThreadNamePrefix[] = "arb-";

inline void NameThisThread(const std::string& name) {
  const std::string full = std::string(kThreadNamePrefix) + name;
  pthread_setname_np(pthread_self(), full.substr(0, 15).c_str());
}

}  // namespace arbiter

#endif  // ARBITER_LEDGER_THREAD_NAME_H_
