// Reading one Go game from SGF text (pure parsing, no I/O): FF[4], and the
// older FF[1]-FF[3], whose property identifiers may carry lower-case letters
// that are ignored ("AddBlack" is AB, "VieW" is VW; refused in FF[4]).
//
// Only the main line is kept: at every branch the first variation is
// followed; later variations are still checked for syntax. Moves `B[]` and
// `W[]` may be passes, written `[]` or `[tt]`. Errors name the line and
// column (1-based) in the text.
#ifndef ARBITER_ADJUDICATOR_ENGINE_SGF_H_
#define ARBITER_ADJUDICATOR_ENGINE_SGF_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// A place in the SGF text, 1-based.
struct SgfPosition {
  int line = 1;
  int column = 1;
};

// "line 3, column 7"
std::string PositionText(SgfPosition position);

struct SgfMove {
  v1::Color color = v1::COLOR_UNSPECIFIED;
  std::optional<int> vertex;  // absent for a pass (see point.h)
  // BL / WL in the same node, 0 to 1 year, to the millisecond: the time left
  // after the move (in byo-yomi, in the current period).
  std::optional<absl::Duration> time_left;
  // OB / OW in the same node: moves left in the overtime period, or, with a
  // byo-yomi OT, the periods left (the current one included).
  std::optional<int> overtime_count;
  SgfPosition position;  // of the B or W property
};

struct SgfGame {
  int board_size = 19;                               // SZ, default 19; only 9, 13, 19
  std::string black_name, black_rank;                // PB, BR
  std::string white_name, white_rank;                // PW, WR
  std::optional<double> komi;                        // KM, in points
  std::string date;                                  // DT, as written
  std::string game_name;                             // GN
  std::string result;                                // RE, as written
  int file_format = 1;                               // FF (the specification's default is 1)
  std::optional<absl::Duration> time_limit;          // TM, when a number of seconds
  std::string overtime;                              // OT, as written
  std::vector<int> setup_black, setup_white;         // AB, AW in the root node
  v1::Color player_to_move = v1::COLOR_UNSPECIFIED;  // PL
  std::vector<SgfMove> moves;                        // the main line, in order
};

// Parses a file holding exactly one game tree.
absl::StatusOr<SgfGame> ParseSgf(std::string_view text);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_SGF_H_
