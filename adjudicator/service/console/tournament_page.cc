#include "adjudicator/service/console/tournament_page.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "adjudicator/service/console/html.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/console/words.h"
#include "adjudicator/tournament/match_scores.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/standings_columns.h"

namespace arbiter::service::console {
namespace {

using v1::ScoredPairing;

// A player in a pairing or among the byes: the name as the standings give it
// (names.h NativeName: family then given, as the record has them, spaced
// unless both are CJK), then the rank.
std::string PlayerName(const v1::Tournament& t, const std::string& id) {
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.id() != id) continue;
    std::string name = tournament::NativeName(p);
    return p.rank().empty() ? name : absl::StrCat(name, " ", p.rank());
  }
  return id;
}

// A table that may be wider than a phone: it scrolls sideways inside its
// box (focusable, so a keyboard scrolls it too), the page never does.
std::string Wide(absl::string_view zh, absl::string_view en, absl::string_view table) {
  return absl::StrCat("<div class=\"wide\" tabindex=\"0\" role=\"region\" aria-label=\"",
                      Escape(zh), " ", Escape(en), "\">", table, "</div>");
}

// The team a player plays for (a team event); empty if none.
std::string PlayerTeam(const v1::Tournament& t, const std::string& id) {
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.id() == id) return p.team();
  }
  return "";
}

// A word of the team matches' table in both languages.
std::string MatchWords(absl::string_view key) {
  return Both(TeamMatchWord(key, Lang::kZh), TeamMatchWord(key, Lang::kEn));
}

std::string TeamName(const v1::Tournament& t, const std::string& id) {
  for (const v1::TournamentTeam& team : t.teams()) {
    if (team.id() == id) return team.name().empty() ? id : team.name();
  }
  return id;
}

// Games won from board points: 4 -> "2", 5 -> "2½" (a draw half each).
std::string Games(int board_points) {
  return absl::StrCat(board_points / 2, board_points % 2 == 1 ? "½" : "");
}

// The round's matches as their boards finish: the score so far, and the
// boards still playing or the match's result (match_scores.h). The page
// reads itself again when one of the round's games changes (tournament.js),
// so a board's result moves its match's score.
std::string MatchesTable(const TournamentFacts& f, int round) {
  std::string rows;
  for (const tournament::MatchScore& m :
       tournament::MatchScores(f.tournament, f.report.pairings())) {
    if (m.round != round) continue;
    const std::string a = TeamName(f.tournament, m.teams[0]);
    const std::string b = TeamName(f.tournament, m.teams[1]);
    std::string state;
    if (!m.Complete()) {
      const std::string n = absl::StrCat(m.boards - m.finished);
      state = Both(absl::StrReplaceAll(TeamMatchWord("playing", Lang::kZh), {{"{n}", n}}),
                   absl::StrReplaceAll(TeamMatchWord("playing", Lang::kEn), {{"{n}", n}}));
    } else if (m.MatchPoints(0) == 1) {
      state = MatchWords("drawn");
    } else {
      const std::string& winner = m.MatchPoints(0) == 2 ? a : b;
      state = Both(absl::StrReplaceAll(TeamMatchWord("won", Lang::kZh), {{"{team}", winner}}),
                   absl::StrReplaceAll(TeamMatchWord("won", Lang::kEn), {{"{team}", winner}}));
    }
    const std::string score = absl::StrCat(Games(m.board_points[0]), ":", Games(m.board_points[1]));
    absl::StrAppend(&rows, "<tr class=\"match\" data-teams=\"", Escape(m.teams[0]), ",",
                    Escape(m.teams[1]), "\" data-score=\"", score, "\" data-finished=\"",
                    m.finished, "\" data-boards=\"", m.boards, "\"><td>", Escape(a), " – ",
                    Escape(b), "</td><td class=\"score\">", score, "</td><td class=\"num\">",
                    m.board_points[0], ":", m.board_points[1], "</td><td class=\"state\">", state,
                    "</td></tr>\n");
  }
  if (rows.empty()) return "";
  return absl::StrCat(
      "<h3>", MatchWords("title"), "</h3>\n",
      Wide(TeamMatchWord("title", Lang::kZh), TeamMatchWord("title", Lang::kEn),
           absl::StrCat("<table class=\"matches\"><thead><tr><th>", MatchWords("match"),
                        "</th><th>", MatchWords("score"), "</th><th>", MatchWords("boardPoints"),
                        "</th><th>", MatchWords("state"), "</th></tr></thead><tbody>\n", rows,
                        "</tbody></table>")),
      "\n<p class=\"marks\">", MatchWords("counted"), "</p>\n");
}

std::string PairingResult(const ScoredPairing& p) {
  switch (p.status()) {
    case ScoredPairing::PENDING:
      return Both("未完成", "not finished");
    case ScoredPairing::VOID:
      return Both("无效", "void");
    case ScoredPairing::MISMATCH:
      return Both("对局与对阵不符", "game does not match its pairing");
    default:
      break;
  }
  v1::Result r;
  r.set_outcome(p.outcome());
  r.set_reason(p.reason());
  std::string out = Both(ResultWords(r, Lang::kZh), ResultWords(r, Lang::kEn));
  if (p.by_default()) absl::StrAppend(&out, " ", Both("（不战）", "(by default)"));
  // 1988 art. 29.4 counts a withdrawn player's unplayed board as the
  // opponent's win, not as a forfeit (2002 28.4: 弃权).
  if (p.status() == ScoredPairing::FORFEIT && p.clause() == "cn-1988/29.4") {
    absl::StrAppend(&out, " ", MatchWords("opponentsWin"));
  } else if (p.status() == ScoredPairing::FORFEIT) {
    absl::StrAppend(&out, " ", Both("（弃权）", "(forfeit)"));
  }
  return out;
}

// The criterion that broke a tie, its words in each language marked, so the
// screen shows the one chosen ("board 1 第1台": English, then Chinese).
std::string DecidedBy(const std::string& decided_by) {
  const std::string words = tournament::DecidedByWords(decided_by);
  if (!absl::StartsWith(words, absl::StrCat(decided_by, " "))) return Escape(words);
  return absl::StrCat("<span lang=\"en\">", Escape(decided_by), "</span> <span lang=\"zh\">",
                      Escape(words.substr(decided_by.size() + 1)), "</span>");
}

// Which rounds the standings count: a round counts for an entrant once
// their game of it has its result, so during a round the page says whose
// totals still leave it out.
std::string CountedRounds(const v1::StandingsReport& r) {
  const std::string zh = tournament::CountedRoundsWords(r, true);
  if (zh.empty()) return "";
  return absl::StrCat("\n<p class=\"counted\">", Both(zh, tournament::CountedRoundsWords(r, false)),
                      "</p>");
}

std::string StandingsSection(const TournamentFacts& f) {
  const v1::StandingsReport& r = f.report;
  const int boards = r.standings().empty() ? 0 : r.standings(0).board_by_board_size();
  const std::vector<tournament::StandingsColumn> columns =
      tournament::StandingsColumns(r.settings(), boards);
  std::string head =
      absl::StrCat("<th>", Both("名次", "Rank"), "</th><th>", Both("姓名", "Name"), "</th>");
  for (const auto& c : columns) {
    absl::StrAppend(&head, "<th class=\"criterion\" data-column=\"", Escape(c.csv), "\">",
                    "<span lang=\"zh\">", Escape(c.zh), "</span> <span class=\"short\">",
                    Escape(c.short_name), "</span></th>");
  }
  absl::StrAppend(&head, "<th class=\"decided-by\">", Both("区分名次", "tie broken by"), "</th>");
  std::string rows;
  for (const v1::Standing& s : r.standings()) {
    absl::StrAppend(&rows, "<tr data-id=\"", Escape(s.id()), "\"><td class=\"num\">",
                    s.rank() == 0 ? "-" : absl::StrCat(s.rank()), "</td><td>", Escape(s.name()),
                    s.withdrawn() ? absl::StrCat(" ", Both("（退赛）", "(withdrawn)")) : "",
                    "</td>");
    for (const auto& c : columns) {
      absl::StrAppend(&rows, "<td class=\"num\">", Escape(tournament::ColumnValue(c, s)), "</td>");
    }
    absl::StrAppend(&rows, "<td class=\"decided-by\">", DecidedBy(s.decided_by()), "</td></tr>\n");
  }
  std::string legend;
  for (const auto& c : columns) {
    absl::StrAppend(&legend, "<dt>", Escape(c.short_name), "</dt><dd><span lang=\"zh\">",
                    Escape(c.zh), c.zh_legend.empty() ? "" : "：", Escape(c.zh_legend),
                    "</span> <span lang=\"en\">", Escape(c.en), "</span></dd>");
  }
  return absl::StrCat("<section class=\"sheet\" id=\"standings\"><h2>", Both("排名", "Standings"),
                      " · ", r.rounds(), " ", Both("轮", r.rounds() == 1 ? "round" : "rounds"),
                      "</h2>\n",
                      Wide("排名", "Standings",
                           absl::StrCat("<table class=\"standings\"><thead><tr>", head,
                                        "</tr></thead><tbody>\n", rows, "</tbody></table>")),
                      CountedRounds(r), "\n<dl class=\"legend\">", legend, "</dl></section>\n");
}

// An individual round robin's cross-table: each row player's results
// against each column player, + a win, = a draw, − a loss, · not yet.
std::string CrossTable(const TournamentFacts& f) {
  const v1::StandingsReport& r = f.report;
  std::vector<std::string> ids;
  for (const v1::Standing& s : r.standings()) ids.push_back(s.id());
  std::string head = absl::StrCat("<th></th><th>", Both("姓名", "Name"), "</th>");
  for (size_t j = 0; j < ids.size(); ++j) absl::StrAppend(&head, "<th>", j + 1, "</th>");
  std::string rows;
  for (size_t i = 0; i < ids.size(); ++i) {
    absl::StrAppend(&rows, "<tr><th>", i + 1, "</th><td>", Escape(r.standings(i).name()), "</td>");
    for (size_t j = 0; j < ids.size(); ++j) {
      if (i == j) {
        absl::StrAppend(&rows, "<td class=\"self\">×</td>");
        continue;
      }
      std::string marks;
      for (const ScoredPairing& p : r.pairings()) {
        const bool black = p.black() == ids[i] && p.white() == ids[j];
        if (!black && !(p.white() == ids[i] && p.black() == ids[j])) continue;
        if (p.status() != ScoredPairing::DECIDED && p.status() != ScoredPairing::FORFEIT) {
          marks += "·";
          continue;
        }
        const int points = black ? p.black_points() : p.white_points();
        marks += points == 2 ? "+" : points == 1 ? "=" : "−";
      }
      absl::StrAppend(&rows, "<td class=\"mark\">", marks, "</td>");
    }
    absl::StrAppend(&rows, "</tr>\n");
  }
  return absl::StrCat("<section class=\"sheet\" id=\"cross-table\"><h2>",
                      Both("成绩对照表", "Cross-table"), "</h2>\n",
                      Wide("成绩对照表", "Cross-table",
                           absl::StrCat("<table class=\"cross\"><thead><tr>", head,
                                        "</tr></thead><tbody>\n", rows, "</tbody></table>")),
                      "<p class=\"marks\">+ ", Both("胜", "win"), " · = ", Both("和", "draw"),
                      " · − ", Both("负", "loss"), " · · ", Both("未赛", "not yet"),
                      "</p></section>\n");
}

std::string RoundSection(const TournamentFacts& f, int round) {
  std::string rows;
  std::string match;  // a team event: the match of the rows above, "A,B"
  for (const ScoredPairing& p : f.report.pairings()) {
    if (p.round() != round) continue;
    // A team event's boards under their match's name, so a floor arbiter
    // sees which teams play at a table.
    if (f.tournament.settings().teams()) {
      const std::string a = PlayerTeam(f.tournament, p.black());
      const std::string b = PlayerTeam(f.tournament, p.white());
      const std::string pair = a < b ? absl::StrCat(a, ",", b) : absl::StrCat(b, ",", a);
      if (pair != match) {
        match = pair;
        absl::StrAppend(&rows, "<tr class=\"match-head\"><th colspan=\"5\" scope=\"colgroup\">",
                        Escape(TeamName(f.tournament, a)), " – ", Escape(TeamName(f.tournament, b)),
                        "</th></tr>\n");
      }
    }
    const std::string game = p.game_id().empty()
                                 ? "—"
                                 : absl::StrCat("<a href=\"/games/", Escape(p.game_id()), "\">",
                                                Escape(p.game_id()), "</a>");
    absl::StrAppend(&rows, "<tr><td class=\"num\">", p.board(), "</td><td>",
                    Escape(PlayerName(f.tournament, p.black())), "</td><td>",
                    Escape(PlayerName(f.tournament, p.white())), "</td><td>", PairingResult(p),
                    "</td><td>", game, "</td></tr>\n");
  }
  std::string byes;
  for (const v1::TournamentRound& r : f.tournament.rounds()) {
    if (r.round() != round) continue;
    for (const std::string& id : r.byes()) {
      if (!byes.empty()) byes += ", ";
      byes += Escape(PlayerName(f.tournament, id));
    }
  }
  std::string nav;
  for (const v1::TournamentRound& r : f.tournament.rounds()) {
    absl::StrAppend(&nav, r.round() == round ? "<strong>" : "", "<a href=\"?round=", r.round(),
                    "\">", r.round(), "</a>", r.round() == round ? "</strong>" : "", " ");
  }
  return absl::StrCat(
      "<section class=\"sheet\" id=\"round\"><h2>",
      Both(absl::StrCat("第", round, "轮"), absl::StrCat("Round ", round)), " · ",
      Both("对阵与结果", "pairings and results"), "</h2>\n<nav class=\"no-print rounds\">",
      Both("轮次", "Rounds"), ": ", nav, "</nav>\n", MatchesTable(f, round),
      Wide("对阵", "Pairings",
           absl::StrCat("<table class=\"pairings\"><thead><tr><th>", Both("台次", "Board"),
                        "</th><th>", Both("黑方", "Black"), "</th><th>", Both("白方", "White"),
                        "</th><th>", Both("结果", "Result"), "</th><th>", Both("对局", "Game"),
                        "</th></tr></thead><tbody>\n", rows, "</tbody></table>")),
      byes.empty() ? "" : absl::StrCat("<p>", Both("轮空", "Bye"), ": ", byes, "</p>"),
      "</section>\n");
}

}  // namespace

absl::StatusOr<Placements> PlaceGames(tournament::TournamentHost& host) {
  absl::StatusOr<std::vector<std::string>> ids = host.store->Ids();
  if (!ids.ok()) return ids.status();
  Placements out;
  for (const std::string& id : *ids) {
    absl::StatusOr<v1::Tournament> t = host.service->Current(id);
    if (!t.ok()) return t.status();
    for (const v1::TournamentRound& r : t->rounds()) {
      for (const v1::Pairing& p : r.pairings()) {
        Placement place{id, t->title(), t->settings().location(), r.round(), p.board()};
        if (!p.game_id().empty()) out[p.game_id()] = place;
        for (const std::string& g : p.replayed_game_ids()) out[g] = place;
      }
    }
  }
  return out;
}

std::string PlacementsJson(const Placements& placements) {
  std::vector<std::string> items;
  for (const auto& [game, p] : placements) {
    items.push_back(absl::StrCat(JsonString(game), ":{\"tournament\":", JsonString(p.tournament_id),
                                 ",\"title\":", JsonString(p.title), ",\"round\":", p.round,
                                 ",\"board\":", p.board, "}"));
  }
  return absl::StrCat("{", absl::StrJoin(items, ","), "}");
}

std::string RenderTournament(const TournamentFacts& f) {
  const v1::Tournament& t = f.tournament;
  const v1::TournamentSettings& s = t.settings();
  int round = f.round;
  if (round == 0) {
    for (const v1::TournamentRound& r : t.rounds()) round = std::max(round, r.round());
  }
  const bool round_robin = s.system() == v1::TournamentSettings::ROUND_ROBIN;
  std::string system = round_robin ? Both("循环赛制", "round robin") : Both("积分编排制", "Swiss");
  if (s.teams()) absl::StrAppend(&system, " · ", Both("团体赛", "team event"));
  std::string when = s.begin_date();
  if (!s.end_date().empty() && s.end_date() != s.begin_date())
    absl::StrAppend(&when, " – ", s.end_date());
  // What is known of it, without separators around what is not.
  std::string facts = system;
  for (const std::string& more : {Escape(s.location()), Escape(when)}) {
    if (!more.empty()) absl::StrAppend(&facts, " · ", more);
  }
  std::string errors;
  for (const std::string& e : f.report.errors())
    absl::StrAppend(&errors, "<li>", Escape(e), "</li>");
  std::string body = absl::StrCat(
      "<header class=\"no-print\"><h1><a href=\"/\">arbiter</a> · ", Escape(t.title()),
      "</h1><span id=\"status\" class=\"status\"></span></header>\n<main class=\"tournament\" "
      "data-tournament=\"",
      Escape(t.tournament_id()), "\" data-feed=\"", f.feed, "\">\n<h1 class=\"print-title\">",
      Escape(t.title()), "</h1>\n<p class=\"facts\">", facts, "</p>\n",
      errors.empty() ? "" : absl::StrCat("<ul class=\"bad\">", errors, "</ul>"),
      StandingsSection(f), round_robin && !s.teams() ? CrossTable(f) : "",
      round > 0 ? RoundSection(f, round) : "", "</main>\n");
  return Page(absl::StrCat("比赛 Tournament · ", t.title()), "tournament-page",
              absl::StrCat("<link rel=\"stylesheet\" href=\"/static/tournament.css\">\n"
                           "<script type=\"module\" src=\"/static/tournament.js\"></script>\n",
                           body));
}

}  // namespace arbiter::service::console
