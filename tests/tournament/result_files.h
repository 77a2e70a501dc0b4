// The EGD .h9 and AGA result files read back field by field, as their
// readers (the EGF rating program, the AGA's results import) split them, for
// the tests that check what the exports write (formats_test.cc, e2e_test.cc).
// A character outside printable ASCII (and tab, for AGA) fails the test.
#ifndef ARBITER_TESTS_TOURNAMENT_RESULT_FILES_H_
#define ARBITER_TESTS_TOURNAMENT_RESULT_FILES_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"

namespace arbiter::tournament::testing {

// The EGF table read back as the rating program reads it: "; XX[...]"
// headers, then one line a player of blank-separated fields, closed by the
// player's EGD PIN after "|" where it is known.
struct H9 {
  std::map<std::string, std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> pins;  // one a row; empty where the line has none
};

inline H9 ParseH9(const std::string& text) {
  H9 h;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    for (char c : line) EXPECT_TRUE(c >= 0x20 && c <= 0x7E) << "not ASCII: " << line;
    if (absl::ConsumePrefix(&line, "; ")) {
      const size_t open = line.find('[');
      if (open == 2 && line.back() == ']')
        h.headers[std::string(line.substr(0, 2))] = std::string(line.substr(3, line.size() - 4));
      continue;
    }
    if (line.front() == ';') continue;
    const size_t bar = line.find('|');
    h.pins.emplace_back(bar == absl::string_view::npos ? "" : line.substr(bar + 1));
    h.rows.push_back(absl::StrSplit(line.substr(0, bar), ' ', absl::SkipEmpty()));
  }
  return h;
}

// The AGA results file read back: TOURNEY, start=/finish=/rules=, PLAYERS lines
// "id<TAB>Last, First<TAB>rank", GAMES sections of "white<TAB>black<TAB>
// result<TAB>handicap<TAB>komi", "#" comments, END.
struct Aga {
  std::string tourney;
  std::map<std::string, std::string> header;  // start=, finish=, rules=
  std::vector<std::vector<std::string>> players;
  std::map<int, std::vector<std::vector<std::string>>> games;
  bool ended = false;
};

inline Aga ParseAga(const std::string& text) {
  Aga a;
  std::string section;
  int round = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    for (char c : line) EXPECT_TRUE((c >= 0x20 && c <= 0x7E) || c == '\t') << "not ASCII: " << line;
    if (line.front() == '#') continue;
    if (absl::ConsumePrefix(&line, "TOURNEY ")) {
      a.tourney = std::string(line);
    } else if (absl::ConsumePrefix(&line, "\t")) {
      std::vector<std::string> kv = absl::StrSplit(line, '=');
      a.header[kv[0]] = kv[1];
    } else if (line == "PLAYERS") {
      section = "players";
    } else if (absl::ConsumePrefix(&line, "GAMES ")) {
      section = "games";
      EXPECT_TRUE(absl::SimpleAtoi(line, &round));
    } else if (line == "END") {
      a.ended = true;
    } else if (section == "players") {
      a.players.push_back(absl::StrSplit(line, '\t'));
    } else {
      a.games[round].push_back(absl::StrSplit(line, '\t'));
    }
  }
  return a;
}

}  // namespace arbiter::tournament::testing

#endif  // ARBITER_TESTS_TOURNAMENT_RESULT_FILES_H_
