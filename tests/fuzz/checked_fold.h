// The adjudicator driven the way the fuzz targets drive it: every refused
// event is checked to have left the fold exactly as it was (adjudicator.h's
// promise), and a finished stream can be replayed to check determinism.
#ifndef ARBITER_TESTS_FUZZ_CHECKED_FOLD_H_
#define ARBITER_TESTS_FUZZ_CHECKED_FOLD_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::fuzz {

class CheckedFold {
 public:
  // Loads the rules `created` names (cn-2002 when empty) as the service
  // does; false when they do not exist (the service refuses such a game).
  bool Open(const v1::GameCreated& created);

  // Applies `event`; false when the adjudicator refused it (after checking
  // that nothing changed). Requires a successful Open.
  bool Apply(const v1::Event& event);

  // Replays the accepted events into a fresh adjudicator and checks that
  // it reaches the same rulings and state.
  void CheckReplay() const;

  // Why the last refused event was refused.
  const absl::Status& last_error() const { return last_error_; }
  const Adjudicator& adjudicator() const { return *adjudicator_; }
  const std::vector<v1::Event>& accepted() const { return accepted_; }

 private:
  std::optional<Rules> rules_;
  std::optional<Adjudicator> adjudicator_;
  std::vector<v1::Event> accepted_;
  absl::Status last_error_;
};

// The fold's whole observable state, serialized deterministically.
std::string Snapshot(const Adjudicator& a);

}  // namespace arbiter::fuzz

#endif  // ARBITER_TESTS_FUZZ_CHECKED_FOLD_H_
