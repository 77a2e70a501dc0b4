// The context switches of a process's named threads, read from
// /proc/PID/task/*/{comm,status}: how a test sees whether a thread wakes.
// Each switch in (voluntary: it blocked; involuntary: it was preempted) is a
// time the thread ran, so an idle thread adds none.
#ifndef ARBITER_TESTS_SUPPORT_THREAD_SWITCHES_H_
#define ARBITER_TESTS_SUPPORT_THREAD_SWITCHES_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>

namespace arbiter::testing {

// "TID name" -> voluntary_ctxt_switches + nonvoluntary_ctxt_switches of the
// threads of `pid` whose name starts with `prefix`. A thread that ends while
// it is read is left out.
std::map<std::string, uint64_t> ThreadSwitches(pid_t pid, const std::string& prefix);

// The switches each thread of `after` made since `before` (a thread new in
// `after` counts all of its own); their sum in *total.
std::map<std::string, uint64_t> SwitchesSince(const std::map<std::string, uint64_t>& before,
                                              const std::map<std::string, uint64_t>& after,
                                              uint64_t* total);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_THREAD_SWITCHES_H_
