// The columns of a standings table, as the event's system ranks (art. 27):
// what the CLI's text table heads and explains in its legend, what the CSV
// export writes, what the console's tournament page shows. A round robin
// has no total score and a Swiss event no A, so neither is printed there.
//
//   individual round robin: points, A (胜者小分), B (warnings)
//   individual Swiss, total score (2.A): points, total score, opponents' points, B
//   individual Swiss, points then opponents (2.B): points, opponents' points, B
//   team round robin: match points, board points, board 1, board 2...
//   team Swiss: the total score then match points (2, by 总得分), or match
//     points (by 总积分), then board points, board 1...
// then wins, draws and losses for every system.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_COLUMNS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_COLUMNS_H_

#include <string>
#include <vector>

#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

enum class Criterion {
  kPoints,           // game points (individual) or match points (team)
  kTieBreakA,        // 胜者小分
  kTotalScore,       // 总得分
  kOpponentsPoints,  // 对手分
  kWarnings,         // B
  kBoardPoints,      // team: 局分
  kBoard,            // team: one board's game points (`board`, 1-based)
  kWins,
  kDraws,
  kLosses,
};

struct StandingsColumn {
  Criterion criterion;
  int board = 0;           // kBoard only
  std::string csv;         // the CSV header: "tie_break_a", "board_2"
  std::string short_name;  // the text table's head: "A", "pts", "B2"
  std::string zh;          // 胜者小分
  std::string zh_legend;   // the legend in Chinese: what it counts ("" when the name says it)
  std::string en;          // the legend: what it counts, and which way it ranks
};

// The columns of `settings`' system, ranking criteria first, in their order;
// `boards`: a team event's boards per match.
std::vector<StandingsColumn> StandingsColumns(const v1::TournamentSettings& settings, int boards);

// One standing's value in `column`: "12", "1.50".
std::string ColumnValue(const StandingsColumn& column, const v1::Standing& standing);

// A standing's decidedBy followed by the text's own term for it, as the
// standings line names the criterion that broke a tie: "board points 局分",
// "board 2 第2台", "A 胜者小分", "C:EXTRA_GAME 加赛"; empty for an empty one.
std::string DecidedByWords(const std::string& decided_by);

// Which rounds the standings count (each standing's countedRounds: a round
// counts once the entrant's game of it has its result), in English or in
// Chinese: "counted: rounds 1–2", "计入：第1–2轮". Entrants who differ from
// the most are named after it: "counted: rounds 1–2; round 1 for Chen Jie,
// Zhou Yu", "计入：第1–2轮；Chen Jie、Zhou Yu：第1轮". Empty before any round
// is paired, and for a system that shows no total score (whose "− rounds"
// is what counts rounds).
std::string CountedRoundsWords(const v1::StandingsReport& report, bool chinese);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_COLUMNS_H_
