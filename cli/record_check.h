// What `arbiter record` checks of every line of its input before it sends
// any (issue 29): a file whose line 2 is bad leaves nothing in the ledger,
// rather than line 1's half game.
//
// Each line must be an event (one JSON object the strict parser takes:
// event_lines.h), within the service's byte bounds (field_bounds.h), with a
// kind and a time (`at`); it must belong to a game (the latest gameCreated
// line's, else --game), a game is created at most once in a file, and the
// lines of each game are in time order (an eventVoided aside: it may follow
// the time it corrects, as the adjudicator allows, DOMAIN.md §3.1). What
// only the game's state can tell (a point already occupied, a ruling that is
// not pending) is the server's to judge when the line is sent.
#ifndef ARBITER_CLI_RECORD_CHECK_H_
#define ARBITER_CLI_RECORD_CHECK_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::cli {

class RecordCheck {
 public:
  // `game`: --game, the game of lines before any gameCreated (may be empty).
  explicit RecordCheck(std::string game) : game_(std::move(game)) {}

  // Checks line `number`'s `event` after the lines checked before it: the
  // game it belongs to, or INVALID_ARGUMENT saying what is wrong with it
  // (naming the earlier line it contradicts, if any).
  absl::StatusOr<std::string> Check(int number, const v1::Event& event);

 private:
  struct Game {
    int created_line = 0;  // 0: created before this input (--game)
    int last_line = 0;     // the line of the latest time so far
    absl::Time last_at = absl::InfinitePast();
  };

  std::string game_;  // the game of the lines that follow
  std::map<std::string, Game> games_;
};

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_RECORD_CHECK_H_
