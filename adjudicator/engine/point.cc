#include "adjudicator/engine/point.h"

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

// GTP skips I so that it cannot be confused with J or 1.
constexpr char kColumnLetters[] = "ABCDEFGHJKLMNOPQRST";

}  // namespace

bool IsSupportedBoardSize(int size) { return size == 9 || size == 13 || size == 19; }

bool IsOnBoard(int vertex, int board_size) {
  if (vertex < 0 || vertex >= PaddedArea(board_size)) return false;
  const int column = ColumnOf(vertex, board_size);
  const int row = RowOf(vertex, board_size);
  return column >= 0 && column < board_size && row >= 1 && row <= board_size;
}

absl::StatusOr<int> ParsePoint(std::string_view gtp, int board_size) {
  auto bad = [&](const char* why) {
    // A point is at most 3 bytes: of anything longer the first 16, escaped,
    // so that no client's value comes back whole or with its control bytes.
    const std::string_view head = gtp.substr(0, 16);
    const std::string quoted = absl::CHexEscape(absl::string_view(head.data(), head.size()));
    return absl::InvalidArgumentError(absl::StrCat("bad point \"", quoted,
                                                   gtp.size() > 16 ? "...\" on a " : "\" on a ",
                                                   board_size, "x", board_size, " board: ", why));
  };
  if (!IsSupportedBoardSize(board_size)) return bad("unsupported board size");
  if (gtp.size() < 2 || gtp.size() > 3) return bad("expected a column letter and a row number");
  // ASCII alone, as the C locale's toupper and isdigit read it, without
  // their calls: every move of every game re-judged is parsed here.
  char letter = gtp[0];
  if (letter >= 'a' && letter <= 'z') letter = static_cast<char>(letter - 'a' + 'A');
  // kColumnLetters without its search: A..H, then J.. one place lower.
  const int column = letter < 'A' || letter > 'Z' || letter == 'I' ? -1
                     : letter < 'I'                                ? letter - 'A'
                                                                   : letter - 'A' - 1;
  if (column < 0 || column >= board_size) return bad("no such column");
  if (gtp[1] == '0') return bad("the row has a leading zero");
  int row = 0;
  for (const char d : gtp.substr(1)) {
    if (d < '0' || d > '9') return bad("the row is not a number");
    row = row * 10 + (d - '0');
  }
  if (row < 1 || row > board_size) return bad("no such row");
  return VertexAt(column, row, board_size);
}

std::string PointName(int vertex, int board_size) {
  if (!IsSupportedBoardSize(board_size) || !IsOnBoard(vertex, board_size)) {
    return absl::StrCat("<off-board vertex ", vertex, ">");
  }
  return absl::StrCat(std::string(1, kColumnLetters[ColumnOf(vertex, board_size)]),
                      RowOf(vertex, board_size));
}

}  // namespace arbiter
