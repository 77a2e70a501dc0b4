// The disciplinary record of one game: how often each player has committed
// each incident (a sanctioning may escalate from a given occurrence, e.g. the
// second phone ring), and the warnings and penalty stones they carry.
// Warnings count across kinds: a takeback and a phone ring are two warnings.
#ifndef ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_H_
#define ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_H_

#include <array>

#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rules.pb.h"

namespace arbiter {

class Discipline {
 public:
  // Counts one more `incident` by `c` and returns its 1-based occurrence.
  int Record(v1::Color c, v1::Incident incident) {
    return ++occurrences_[Index(c)][static_cast<int>(incident)];
  }

  // Takes back one occurrence (a ruling overturned on appeal: the incident
  // is held not to have happened, so the next one escalates from here).
  void Unrecord(v1::Color c, v1::Incident incident) {
    int& n = occurrences_[Index(c)][static_cast<int>(incident)];
    if (n > 0) --n;
  }

  // How often `c` has committed `incident` so far.
  int Count(v1::Color c, v1::Incident incident) const {
    return occurrences_[Index(c)][static_cast<int>(incident)];
  }

  // Returns the warnings `c` now has.
  int AddWarning(v1::Color c) { return ++warnings_[Index(c)]; }
  void AddPenaltyStone(v1::Color c) { ++penalty_stones_[Index(c)]; }
  // Lifts one warning or penalty stone (a ruling overturned on appeal).
  void LiftWarning(v1::Color c) {
    if (warnings_[Index(c)] > 0) --warnings_[Index(c)];
  }
  void LiftPenaltyStone(v1::Color c) {
    if (penalty_stones_[Index(c)] > 0) --penalty_stones_[Index(c)];
  }

  int warnings(v1::Color c) const { return warnings_[Index(c)]; }
  int penalty_stones(v1::Color c) const { return penalty_stones_[Index(c)]; }

 private:
  static int Index(v1::Color c) { return c == v1::WHITE ? 1 : 0; }
  static constexpr int kIncidents = v1::Incident_ARRAYSIZE;

  std::array<std::array<int, kIncidents>, 2> occurrences_{};
  std::array<int, 2> warnings_{};
  std::array<int, 2> penalty_stones_{};
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_H_
