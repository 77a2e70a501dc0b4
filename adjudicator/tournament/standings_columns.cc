#include "adjudicator/tournament/standings_columns.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace arbiter::tournament {
namespace {

StandingsColumn Column(Criterion c, std::string csv, std::string short_name, std::string zh,
                       std::string zh_legend, std::string en) {
  return StandingsColumn{c,
                         0,
                         std::move(csv),
                         std::move(short_name),
                         std::move(zh),
                         std::move(zh_legend),
                         std::move(en)};
}

// Rounds as runs: "1–2, 4" ("1–2、4" in Chinese).
std::string RoundRuns(const google::protobuf::RepeatedField<int32_t>& rounds, bool chinese) {
  std::vector<std::string> runs;
  for (int i = 0; i < rounds.size();) {
    int j = i;
    while (j + 1 < rounds.size() && rounds[j + 1] == rounds[j] + 1) ++j;
    runs.push_back(i == j ? absl::StrCat(rounds[i]) : absl::StrCat(rounds[i], "–", rounds[j]));
    i = j + 1;
  }
  return absl::StrJoin(runs, chinese ? "、" : ", ");
}

std::string RoundsPhrase(const google::protobuf::RepeatedField<int32_t>& rounds, bool chinese) {
  if (rounds.empty()) return chinese ? "尚无" : "no round yet";
  if (chinese) return absl::StrCat("第", RoundRuns(rounds, true), "轮");
  return absl::StrCat(rounds.size() == 1 ? "round " : "rounds ", RoundRuns(rounds, false));
}

}  // namespace

std::vector<StandingsColumn> StandingsColumns(const v1::TournamentSettings& s, int boards) {
  const bool swiss = s.system() == v1::TournamentSettings::SWISS;
  const bool by_opponents = s.swiss_method() == v1::TournamentSettings::POINTS_THEN_OPPONENTS;
  std::vector<StandingsColumn> out;
  if (!s.teams()) {
    out.push_back(Column(Criterion::kPoints, "points", "pts", "积分",
                         "胜一局记2分，和一局记1分，负记0分",
                         "game points: 2 a win, 1 a draw, 0 a loss"));
    if (!swiss) {
      out.push_back(Column(Criterion::kTieBreakA, "tie_break_a", "A", "胜者小分",
                           "所胜对手的积分之和，加上所和对手积分的一半",
                           "A: the points of the opponents beaten, plus half those drawn"));
    } else if (!by_opponents) {
      out.push_back(
          Column(Criterion::kTotalScore, "total_score", "total", "总得分",
                 "积分＋〔对手积分总和÷(1/2最高积分)－轮次〕",
                 "total score: points + opponents' points / rounds - rounds (the rounds counted)"));
      out.push_back(Column(Criterion::kOpponentsPoints, "opponents_points", "opp", "对手分",
                           "所遇对手的积分总和（计入总得分）",
                           "opponents' points (in the total score)"));
    } else {
      out.push_back(Column(Criterion::kOpponentsPoints, "opponents_points", "opp", "对手分",
                           "所遇对手的积分总和",
                           "opponents' points: the sum of the points of the opponents met"));
    }
    out.push_back(Column(Criterion::kWarnings, "warnings", "B", "警告",
                         "整个比赛的警告次数，少者名次列前",
                         "B: warnings over the event, fewer ranks higher"));
  } else {
    // Art. 27 团体赛: a Swiss event by total score ranks by it, then as a
    // round robin (match points first); otherwise match points lead.
    const StandingsColumn match =
        Column(Criterion::kPoints, "match_points", "MP", "场分",
               "局分多者为胜记2分，相等为平记1分，负记0分", "match points: 2 a match won, 1 drawn");
    if (swiss && !by_opponents) {
      out.push_back(Column(Criterion::kTotalScore, "total_score", "total", "总得分",
                           "场分＋〔对手场分总和÷(1/2最高场分)－轮次〕",
                           "total score: match points + opponents' match points / rounds - rounds "
                           "(the rounds counted)"));
    }
    out.push_back(match);
    out.push_back(Column(Criterion::kBoardPoints, "board_points", "BP", "局分",
                         "各台胜一局记2分，和一局记1分，各场合计",
                         "board points: 2 a game won, 1 drawn, over all boards"));
    for (int b = 1; b <= boards; ++b) {
      StandingsColumn c =
          Column(Criterion::kBoard, absl::StrCat("board_", b), absl::StrCat("B", b),
                 absl::StrCat("第", b, "台"), "该台棋手的局分（先比第一台，依次相比）",
                 absl::StrCat("board ", b, "'s game points, board 1 first"));
      c.board = b;
      out.push_back(std::move(c));
    }
  }
  out.push_back(Column(Criterion::kWins, "wins", "W", "胜", "", "wins"));
  out.push_back(Column(Criterion::kDraws, "draws", "D", "和", "", "draws"));
  out.push_back(Column(Criterion::kLosses, "losses", "L", "负", "", "losses"));
  return out;
}

std::string ColumnValue(const StandingsColumn& c, const v1::Standing& s) {
  switch (c.criterion) {
    case Criterion::kPoints:
      return absl::StrCat(s.points());
    case Criterion::kTieBreakA:
      return absl::StrFormat("%.2f", s.tie_break_a());
    case Criterion::kTotalScore:
      return absl::StrFormat("%.2f", s.total_score());
    case Criterion::kOpponentsPoints:
      return s.opponents_score() != s.opponents_points() && s.opponents_score() != 0
                 ? absl::StrFormat("%.2f", s.opponents_score())
                 : absl::StrCat(s.opponents_points());
    case Criterion::kWarnings:
      return absl::StrCat(s.warnings());
    case Criterion::kBoardPoints:
      return absl::StrCat(s.board_points());
    case Criterion::kBoard:
      return c.board <= s.board_by_board_size() ? absl::StrCat(s.board_by_board(c.board - 1)) : "";
    case Criterion::kWins:
      return absl::StrCat(s.wins());
    case Criterion::kDraws:
      return absl::StrCat(s.draws());
    case Criterion::kLosses:
      return absl::StrCat(s.losses());
  }
  return "";
}

std::string DecidedByWords(const std::string& decided_by) {
  if (decided_by.empty()) return "";
  if (absl::StartsWith(decided_by, "board ") && decided_by != "board points") {
    return absl::StrCat(decided_by, " 第", decided_by.substr(6), "台");
  }
  static const auto* const kTerms =
      new std::vector<std::pair<std::string, std::string>>{{"points", "积分"},
                                                           {"match points", "场分"},
                                                           {"board points", "局分"},
                                                           {"total score", "总得分"},
                                                           {"opponents' points", "对手分"},
                                                           {"A", "胜者小分"},
                                                           {"B", "警告"},
                                                           {"C:EXTRA_GAME", "加赛"},
                                                           {"C:LOTS", "抽签"}};
  for (const auto& [name, zh] : *kTerms) {
    if (name == decided_by) return absl::StrCat(decided_by, " ", zh);
  }
  return decided_by;
}

std::string CountedRoundsWords(const v1::StandingsReport& report, bool chinese) {
  if (report.rounds() == 0) return "";
  const int boards = report.standings().empty() ? 0 : report.standings(0).board_by_board_size();
  const std::vector<StandingsColumn> columns = StandingsColumns(report.settings(), boards);
  if (std::none_of(columns.begin(), columns.end(), [](const StandingsColumn& c) {
        return c.criterion == Criterion::kTotalScore;
      })) {
    return "";  // only a total score counts rounds (its "− rounds")
  }
  // The entrants grouped by the rounds they count; the group of the most
  // (on a tie, of those counting more rounds: the others are still playing)
  // is named without its entrants.
  struct Group {
    std::string phrase;
    int rounds = 0;
    std::vector<std::string> names;
  };
  std::vector<Group> groups;
  for (const v1::Standing& s : report.standings()) {
    const std::string phrase = RoundsPhrase(s.counted_rounds(), chinese);
    auto at = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.phrase == phrase; });
    if (at == groups.end()) {
      groups.push_back(Group{phrase, s.counted_rounds_size(), {}});
      at = groups.end() - 1;
    }
    at->names.push_back(s.name());
  }
  if (groups.empty()) return "";
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    if (a.names.size() != b.names.size()) return a.names.size() > b.names.size();
    return a.rounds > b.rounds;
  });
  std::string out = absl::StrCat(chinese ? "计入：" : "counted: ", groups[0].phrase);
  for (size_t i = 1; i < groups.size(); ++i) {
    if (chinese) {
      absl::StrAppend(&out, "；", absl::StrJoin(groups[i].names, "、"), "：", groups[i].phrase);
    } else {
      absl::StrAppend(&out, "; ", groups[i].phrase, " for ", absl::StrJoin(groups[i].names, ", "));
    }
  }
  return out;
}

}  // namespace arbiter::tournament
