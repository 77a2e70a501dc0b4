// A deliberately simple second Go board for checking the engine: a 2-D
// array, captures by flood fill, repetition by comparing whole boards. It
// shares no code with adjudicator/board.cc (not even point.h) so that a bug
// there cannot hide here too.
#ifndef ARBITER_TESTS_BOARD_NAIVE_BOARD_H_
#define ARBITER_TESTS_BOARD_NAIVE_BOARD_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace arbiter::testing {

class NaiveBoard {
 public:
  // Cells hold '.', 'X' (black) or 'O' (white); (x, y) with y = 0 the top row.
  explicit NaiveBoard(int size) : size_(size), grid_(size, std::string(size, '.')) {
    seen_.insert(Situation('X'));
  }

  enum class Outcome { kPlayed, kOccupied, kSuicide, kRepetition };

  void Place(int x, int y, char stone) { grid_[y][x] = stone; }
  void RecordSituation(char to_move) { seen_.insert(Situation(to_move)); }

  // Plays if legal (art. 4.2 capture first, art. 5 no suicide, art. 6 no
  // repeated situation); otherwise leaves the board as it was.
  Outcome Play(int x, int y, char stone) {
    if (grid_[y][x] != '.') return Outcome::kOccupied;
    const char other = stone == 'X' ? 'O' : 'X';
    const std::vector<std::string> before = grid_;
    grid_[y][x] = stone;
    int taken = 0;
    for (const auto& [nx, ny] : Neighbours(x, y)) {
      if (grid_[ny][nx] == other && !HasLiberty(nx, ny)) taken += RemoveGroup(nx, ny);
    }
    if (!HasLiberty(x, y)) {
      grid_ = before;
      return Outcome::kSuicide;
    }
    const std::string situation = Situation(other);
    if (seen_.count(situation) > 0) {
      grid_ = before;
      return Outcome::kRepetition;
    }
    seen_.insert(situation);
    (stone == 'X' ? black_captures_ : white_captures_) += taken;
    return Outcome::kPlayed;
  }

  void Pass(char stone) { seen_.insert(Situation(stone == 'X' ? 'O' : 'X')); }

  const std::vector<std::string>& grid() const { return grid_; }
  int black_captures() const { return black_captures_; }
  int white_captures() const { return white_captures_; }

 private:
  std::vector<std::pair<int, int>> Neighbours(int x, int y) const {
    std::vector<std::pair<int, int>> out;
    if (x > 0) out.emplace_back(x - 1, y);
    if (x + 1 < size_) out.emplace_back(x + 1, y);
    if (y > 0) out.emplace_back(x, y - 1);
    if (y + 1 < size_) out.emplace_back(x, y + 1);
    return out;
  }

  std::vector<std::pair<int, int>> Group(int x, int y) const {
    std::vector<std::pair<int, int>> group = {{x, y}};
    std::vector<std::vector<bool>> in(size_, std::vector<bool>(size_, false));
    in[y][x] = true;
    for (size_t i = 0; i < group.size(); ++i) {
      for (const auto& [nx, ny] : Neighbours(group[i].first, group[i].second)) {
        if (!in[ny][nx] && grid_[ny][nx] == grid_[y][x]) {
          in[ny][nx] = true;
          group.emplace_back(nx, ny);
        }
      }
    }
    return group;
  }

  bool HasLiberty(int x, int y) const {
    for (const auto& [gx, gy] : Group(x, y)) {
      for (const auto& [nx, ny] : Neighbours(gx, gy)) {
        if (grid_[ny][nx] == '.') return true;
      }
    }
    return false;
  }

  int RemoveGroup(int x, int y) {
    const auto group = Group(x, y);
    for (const auto& [gx, gy] : group) grid_[gy][gx] = '.';
    return static_cast<int>(group.size());
  }

  std::string Situation(char to_move) const {
    std::string s(1, to_move);
    for (const std::string& row : grid_) s += row;
    return s;
  }

  int size_;
  std::vector<std::string> grid_;
  std::set<std::string> seen_;
  int black_captures_ = 0;
  int white_captures_ = 0;
};

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_BOARD_NAIVE_BOARD_H_
