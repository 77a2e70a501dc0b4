// A small deterministic judge for the ledger's tests, so that they do not
// depend on the engine: a pass earns a ruling (numbered in the game's
// history, its note as many bytes as the pass's time has nanoseconds), a
// move to "Z99" is refused as off the board, a resignation ends the game,
// and nothing but an arbiterDecision is accepted after the end.
#ifndef ARBITER_TESTS_LEDGER_TOY_JUDGE_H_
#define ARBITER_TESTS_LEDGER_TOY_JUDGE_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/judge.h"

namespace arbiter::ledger::testing {

class ToyGame : public GameJudge {
 public:
  absl::StatusOr<Verdict> Apply(const v1::Event& e) override {
    ++revision_;
    if (over_ && !e.has_arbiter_decision()) {
      --revision_;
      return absl::FailedPreconditionError("the game is over");
    }
    if (e.has_move() && e.move().point() == "Z99") {
      --revision_;
      return absl::InvalidArgumentError("point Z99 is off the board");
    }
    Verdict v;
    if (e.has_pass() || e.has_resign()) {
      v1::Ruling& r = v.rulings.emplace_back();
      r.set_number(++rulings_);
      r.set_event(revision_);
      r.set_clause(e.has_pass() ? "toy/1" : "toy/2");
      if (e.has_pass()) r.set_note(std::string(e.at().nanos(), 'n'));
      r.set_against(e.has_pass() && e.pass().color() == v1::WHITE ? v1::Ruling::WHITE
                                                                  : v1::Ruling::BLACK);
    }
    if (e.has_resign()) {
      over_ = true;
      result_.set_outcome(e.resign().color() == v1::BLACK ? v1::Result::WHITE_WINS
                                                          : v1::Result::BLACK_WINS);
      v.game_over = true;
    }
    return v;
  }
  std::string RulesPin() const override { return pin_; }
  const v1::Result* result() const override { return over_ ? &result_ : nullptr; }
  std::unique_ptr<GameJudge> Clone() const override { return std::make_unique<ToyGame>(*this); }

  uint32_t revision() const { return revision_; }

  std::string pin_ = "toy v1";

 private:
  uint32_t revision_ = 0;
  uint32_t rulings_ = 0;
  bool over_ = false;
  v1::Result result_;
};

// Keeps the folds each commit hands it (as the service's read model does),
// unless `keep` is false, so both of the ledger's paths are exercised: a
// judged append starting from a committed fold, and a replay of the stream.
class ToyJudge : public Judge {
 public:
  absl::StatusOr<std::unique_ptr<GameJudge>> Open(absl::string_view game_id,
                                                  const v1::GameCreated& created) override {
    if (before_open) std::exchange(before_open, nullptr)();
    ++opened;
    if (created.ruleset() == "unknown") {
      return absl::InvalidArgumentError(absl::StrCat("game '", game_id, "': unknown ruleset"));
    }
    auto g = std::make_unique<ToyGame>();
    g->pin_ = pin;
    return g;
  }

  std::shared_ptr<const GameJudge> Committed(absl::string_view game_id,
                                             uint64_t revision) override {
    absl::MutexLock lock(&mu);
    auto it = committed.find(std::string(game_id));
    if (it == committed.end() || it->second.revision != revision) return nullptr;
    return it->second.fold;
  }

  void OnCommit(const std::vector<CommittedFold>& folds) override {
    absl::MutexLock lock(&mu);
    ++commits;
    commit_thread = std::this_thread::get_id();
    if (!keep) return;
    for (const CommittedFold& f : folds) committed[f.game_id] = f;
  }

  // The fold kept for `game_id`, or nullptr.
  std::shared_ptr<const ToyGame> Kept(const std::string& game_id) {
    absl::MutexLock lock(&mu);
    auto it = committed.find(game_id);
    return it == committed.end() ? nullptr
                                 : std::static_pointer_cast<const ToyGame>(it->second.fold);
  }

  // Run once, on the batch's thread, when a game is next opened (before
  // it is): lets a test act while a batch is running.
  std::function<void()> before_open;
  std::string pin = "toy v1";
  std::atomic<int> opened{0};
  bool keep = true;
  absl::Mutex mu;
  std::map<std::string, CommittedFold> committed ABSL_GUARDED_BY(mu);
  int commits ABSL_GUARDED_BY(mu) = 0;
  std::thread::id commit_thread ABSL_GUARDED_BY(mu);  // the last commit's
};

inline v1::Event Created(const std::string& game_id, const std::string& key = "") {
  v1::Event e;
  e.mutable_at()->set_seconds(1700000000);
  e.set_idempotency_key(key);
  e.mutable_game_created()->set_game_id(game_id);
  e.mutable_game_created()->set_ruleset("cn-2002");
  e.mutable_game_created()->set_board_size(19);
  return e;
}

inline v1::Event Move(v1::Color c, const std::string& point, const std::string& key = "") {
  v1::Event e;
  e.mutable_at()->set_seconds(1700000100);
  e.set_idempotency_key(key);
  e.mutable_move()->set_color(c);
  e.mutable_move()->set_point(point);
  return e;
}

inline v1::Event Pass(v1::Color c, const std::string& key = "") {
  v1::Event e;
  e.mutable_at()->set_seconds(1700000200);
  e.set_idempotency_key(key);
  e.mutable_pass()->set_color(c);
  return e;
}

inline v1::Event Resign(v1::Color c, const std::string& key = "") {
  v1::Event e;
  e.mutable_at()->set_seconds(1700000300);
  e.set_idempotency_key(key);
  e.mutable_resign()->set_color(c);
  return e;
}

}  // namespace arbiter::ledger::testing

#endif  // ARBITER_TESTS_LEDGER_TOY_JUDGE_H_
