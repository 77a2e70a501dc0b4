// Helpers for the adjudicator's tests: events written as the JSON of the wire
// (DOMAIN.md §3) at seconds after 09:00:00, and a game that folds them.
#ifndef ARBITER_TESTS_ENGINE_ENGINE_TEST_UTIL_H_
#define ARBITER_TESTS_ENGINE_ENGINE_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "rulesdb/rules.h"

namespace arbiter::testing {

// RFC 3339 time `seconds` after 2026-05-01T09:00:00Z.
inline std::string At(int seconds) {
  const absl::Time t =
      absl::FromCivil(absl::CivilSecond(2026, 5, 1, 9, 0, 0), absl::UTCTimeZone()) +
      absl::Seconds(seconds);
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// Unix seconds of At(seconds).
inline int64_t UnixAt(int seconds) {
  return absl::ToUnixSeconds(
      absl::FromCivil(absl::CivilSecond(2026, 5, 1, 9, 0, 0), absl::UTCTimeZone()) +
      absl::Seconds(seconds));
}

// The event `{"at": At(seconds), <kind>}`; `kind` is e.g.
// R"("move": {"color": "BLACK", "point": "Q16"})". Fails the test if the
// JSON does not parse.
inline v1::Event Ev(int seconds, const std::string& kind) {
  v1::Event e;
  const std::string json = absl::StrCat(R"({"at": ")", At(seconds), R"(", )", kind, "}");
  const auto s = google::protobuf::util::JsonStringToMessage(json, &e);
  EXPECT_TRUE(s.ok()) << json << ": " << s.ToString();
  return e;
}

inline std::string Move(const std::string& color, const std::string& point) {
  return absl::StrCat(R"("move": {"color": ")", color, R"(", "point": ")", point, R"("})");
}
inline std::string Of(const std::string& kind, const std::string& color) {
  return absl::StrCat("\"", kind, R"(": {"color": ")", color, R"("})");
}

// The tests' time control: one hour main time and 5 × 60 s byo-yomi.
inline constexpr char kHourAndByoYomi[] =
    R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})";

// The gameCreated of the tests: 19x19 at SAME_SITE, scheduled at 09:00,
// kHourAndByoYomi unless `time_control` says otherwise; `extra` adds fields
// ("\"komiStones\": 7.5").
inline std::string Created(const std::string& ruleset, const std::string& venue = "SAME_SITE",
                           const std::string& time_control = kHourAndByoYomi,
                           const std::string& extra = "") {
  return absl::StrCat(R"("gameCreated": {"gameId": "t", "ruleset": ")", ruleset,
                      R"(", "boardSize": 19, "venue": ")", venue, R"(", "scheduledStart": ")",
                      At(0), R"(")", time_control.empty() ? "" : R"(, "timeControl": )",
                      time_control, extra.empty() ? "" : ", ", extra, "}");
}

// A game under a built-in ruleset.
class Game {
 public:
  explicit Game(const std::string& ruleset, const std::string& supplement = "")
      : adjudicator_(Make(ruleset, supplement)) {}
  explicit Game(Rules rules) : adjudicator_(*Adjudicator::Create(std::move(rules))) {}

  // Applies the event; returns its status.
  absl::Status Apply(const v1::Event& e) {
    absl::StatusOr<std::vector<v1::Ruling>> r = adjudicator_.Apply(e);
    return r.status();
  }
  absl::Status Apply(int seconds, const std::string& kind) { return Apply(Ev(seconds, kind)); }

  Adjudicator& a() { return adjudicator_; }
  const std::vector<v1::Ruling>& rulings() const { return adjudicator_.rulings(); }

 private:
  static Adjudicator Make(const std::string& ruleset, const std::string& supplement) {
    absl::StatusOr<Rules> rules = LoadRules(ruleset, supplement);
    EXPECT_TRUE(rules.ok()) << rules.status();
    return *Adjudicator::Create(*std::move(rules));
  }
  Adjudicator adjudicator_;
};

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_ENGINE_TEST_UTIL_H_
