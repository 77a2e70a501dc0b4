#include "adjudicator/service/console/broadcast_pages.h"

#include <openssl/sha.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/console/guarded_server.h"
#include "adjudicator/service/console/html.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/tournament_page.h"
#include "adjudicator/service/console/words.h"

namespace arbiter::service::console {
namespace {

// While a game shown is in play a page changes with every move: a cache
// keeps it a second. A finished round changes only by a correction.
constexpr absl::Duration kLiveMaxAge = absl::Seconds(1);
constexpr absl::Duration kFinishedMaxAge = absl::Seconds(60);

Lang LangOf(const httplib::Request& req) {
  return req.get_param_value("lang") == "en" ? Lang::kEn : Lang::kZh;
}

// "?lang=en" for English pages, nothing for Chinese ones: links keep the language.
std::string LangQuery(Lang lang) { return lang == Lang::kEn ? "?lang=en" : ""; }

std::string Fill(absl::string_view tmpl, int n) {
  return absl::StrReplaceAll(tmpl, {{"{n}", absl::StrCat(n)}});
}

// The boards of one round, by board number: the game at each.
struct RoundBoards {
  std::string title;
  std::map<int, std::string> games;
};
using Rounds = std::map<std::pair<std::string, int>, RoundBoards>;

absl::StatusOr<Rounds> RoundsOf(tournament::TournamentHost* host) {
  Rounds rounds;
  if (host == nullptr) return rounds;
  absl::StatusOr<Placements> placements = PlaceGames(*host);
  if (!placements.ok()) return placements.status();
  for (const auto& [game, p] : *placements) {
    RoundBoards& r = rounds[{p.tournament_id, p.round}];
    r.title = p.title.empty() ? p.tournament_id : p.title;
    // A replay names the same board again: the later game (a larger id
    // sorts later only by chance, so the one in play wins).
    r.games[p.board] = game;
  }
  return rounds;
}

std::string Clock(const v1::Clock& c, Lang lang) {
  const int64_t s = absl::ToInt64Seconds(FromProto(c.main_remaining()));
  std::string out = absl::StrFormat("%d:%02d", s / 60, s % 60);
  const int periods = c.moves_remaining() > 0 ? c.moves_remaining() : c.periods_remaining();
  if (s == 0 && periods > 0) {
    absl::StrAppend(&out, " ", Fill(BroadcastWord("periods", lang), periods));
  }
  return out;
}

// The name and the rank each kept whole (a phone may put the rank on a
// line of its own, never break a name).
std::string PlayerCell(const v1::Player& p) {
  std::string out = absl::StrCat("<span class=\"unit\">", Escape(p.name()), "</span>");
  if (!p.rank().empty())
    absl::StrAppend(&out, " <span class=\"unit\">", Escape(p.rank()), "</span>");
  return out;
}

// Black's clock, then White's, each kept whole.
std::string ClocksCell(const v1::GameState& state, Lang lang) {
  return absl::StrCat("<span class=\"unit\">", Clock(state.clocks().black(), lang),
                      "</span> / <span class=\"unit\">", Clock(state.clocks().white(), lang),
                      "</span>");
}

std::string ResultCell(const PublicGame& g, Lang lang) {
  if (g.cancelled) return Escape(BroadcastWord("cancelled", lang));
  if (Counting(g)) return Escape(BroadcastWord("counting", lang));
  if (!g.result.has_value()) return Escape(BroadcastWord("playing", lang));
  return Escape(ResultWords(*g.result, lang));
}

// What of a game broadcast.js does not draw itself (a result, a
// cancellation, penalty stones, play ended awaiting the count): when an
// event changes it, the page is read again. The same text as broadcast.js's outcome().
std::string Outcome(const PublicGame& g) {
  std::string result;
  if (g.result.has_value()) result = g.result->sgf().empty() ? "result" : g.result->sgf();
  return absl::StrCat(result, "|", g.cancelled ? 1 : 0, "|", g.state.penalty_stones().black(), "|",
                      g.state.penalty_stones().white(), Counting(g) ? "|counting" : "");
}

// The attributes broadcast.js updates a game's row or board by.
std::string GameAttributes(const PublicGame& g) {
  return absl::StrCat(" data-game=\"", Escape(g.game_id), "\" data-position=\"", g.position,
                      "\" data-outcome=\"", Escape(Outcome(g)), "\"");
}

// The page's frame: title, the language switch, the delay, `body`.
std::string Frame(absl::string_view title, absl::string_view body, Lang lang, absl::Duration delay,
                  absl::string_view games_attr, absl::string_view after) {
  const std::string other = lang == Lang::kEn ? "?lang=zh" : "?lang=en";
  const int minutes = static_cast<int>(absl::ToInt64Minutes(delay));
  const std::string delay_line = delay > absl::ZeroDuration()
                                     ? Fill(BroadcastWord("delay", lang), std::max(minutes, 1))
                                     : BroadcastWord("live", lang);
  std::string html = Page(
      title, "broadcast",
      absl::StrCat("<header><h1>", Escape(title), "</h1><a class=\"lang\" href=\"", other, "\">",
                   Escape(BroadcastWord("language", lang)), "</a></header>\n<p class=\"delay\">",
                   Escape(delay_line), "</p>\n<main data-games=\"", Escape(games_attr),
                   "\" data-after=\"", Escape(after), "\" data-periods=\"",
                   Escape(BroadcastWord("periods", lang)), "\">", body,
                   "</main>\n<script type=\"module\" src=\"/static/broadcast.js\"></script>"));
  if (lang == Lang::kEn) {
    html = absl::StrReplaceAll(html, {{"<html lang=\"zh-Hans\">", "<html lang=\"en\">"}});
  }
  return html;
}

// The board's coordinates along the top (GTP letters, no I) and the left
// side (n at the top, 1 at the bottom), in the margin of a `cell`.
std::string Coordinates(int n, int cell) {
  static constexpr char kLetters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  std::string out = "<g font-size=\"8\" fill=\"#333\" text-anchor=\"middle\">";
  for (int i = 1; i <= n && i < static_cast<int>(sizeof kLetters); ++i) {
    absl::StrAppend(&out, "<text x=\"", i * cell, "\" y=\"", cell / 2 + 3, "\">",
                    std::string(1, kLetters[i - 1]), "</text><text x=\"", cell / 2, "\" y=\"",
                    i * cell + 3, "\">", n + 1 - i, "</text>");
  }
  return absl::StrCat(out, "</g>");
}

// The position as SVG, named for a screen reader by its move: grid, star
// points left out, stones, the coordinates along two sides.
std::string BoardSvg(const v1::GameState& state, Lang lang) {
  const int n = state.board_size();
  if (n == 0) return "";
  constexpr int kCell = 20;
  const int side = (n + 1) * kCell;
  std::string svg =
      absl::StrCat("<svg class=\"goban\" viewBox=\"0 0 ", side, " ", side, "\" data-size=\"", n,
                   "\" data-cell=\"", kCell, "\" data-label=\"",
                   Escape(BroadcastWord("position", lang)), "\" role=\"img\" aria-label=\"",
                   Escape(Fill(BroadcastWord("position", lang), state.move_number())),
                   "\" xmlns=\"http://www.w3.org/2000/svg\">", "<rect width=\"", side,
                   "\" height=\"", side, "\" fill=\"#dcb35c\"/>", Coordinates(n, kCell));
  for (int i = 1; i <= n; ++i) {
    absl::StrAppend(&svg, "<line x1=\"", kCell, "\" y1=\"", i * kCell, "\" x2=\"", n * kCell,
                    "\" y2=\"", i * kCell, "\" stroke=\"#000\" stroke-width=\"0.6\"/>",
                    "<line x1=\"", i * kCell, "\" y1=\"", kCell, "\" x2=\"", i * kCell, "\" y2=\"",
                    n * kCell, "\" stroke=\"#000\" stroke-width=\"0.6\"/>");
  }
  // Once counted, the stones agreed dead are crossed where they stand.
  const absl::flat_hash_set<std::string> dead(state.dead_stones().begin(),
                                              state.dead_stones().end());
  for (int row = 0; row < n; ++row) {
    const std::string& line = state.board(row);
    for (int col = 0; col < n && col < static_cast<int>(line.size()); ++col) {
      if (line[col] != 'X' && line[col] != 'O') continue;
      const std::string point = PointName(VertexAt(col, n - row, n), n);
      const int x = (col + 1) * kCell, y = (row + 1) * kCell;
      absl::StrAppend(&svg, "<circle data-point=\"", point, "\" cx=\"", x, "\" cy=\"", y,
                      "\" r=\"9.3\" fill=\"", line[col] == 'X' ? "#000" : "#fff",
                      "\" stroke=\"#000\" stroke-width=\"0.6\"/>");
      if (!dead.contains(point)) continue;
      absl::StrAppend(&svg, "<path data-dead=\"", point, "\" d=\"M", x - 5, " ", y - 5, "L", x + 5,
                      " ", y + 5, "M", x + 5, " ", y - 5, "L", x - 5, " ", y + 5,
                      "\" stroke=\"#d0342c\" stroke-width=\"2\" stroke-linecap=\"round\"/>");
    }
  }
  absl::StrAppend(&svg, "</svg>");
  return svg;
}

std::string Sha256Hex(absl::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

// A tournament id and a round number from the path.
absl::StatusOr<std::pair<std::string, int>> RoundOf(const httplib::Request& req) {
  int round = 0;
  if (!absl::SimpleAtoi(std::string(req.matches[2]), &round) || round < 1) {
    return absl::NotFoundError("no such round");
  }
  return std::pair<std::string, int>(std::string(req.matches[1]), round);
}

}  // namespace

std::string ViewerAddress(absl::string_view remote, absl::string_view forwarded_for,
                          const std::vector<std::string>& trusted) {
  auto is_trusted = [&](absl::string_view a) {
    return std::find(trusted.begin(), trusted.end(), a) != trusted.end();
  };
  if (!is_trusted(remote)) return std::string(remote);
  std::vector<absl::string_view> hops = absl::StrSplit(forwarded_for, ',', absl::SkipWhitespace());
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
    const absl::string_view address = absl::StripAsciiWhitespace(*hop);
    if (!address.empty() && !is_trusted(address)) return std::string(address);
  }
  return std::string(remote);
}

void SendCacheable(const httplib::Request& req, httplib::Response& res, std::string body,
                   absl::string_view content_type, absl::Duration max_age) {
  const std::string etag = absl::StrCat("\"", Sha256Hex(body).substr(0, 32), "\"");
  res.set_header("ETag", etag);
  res.set_header("Cache-Control", absl::StrCat("public, max-age=", absl::ToInt64Seconds(max_age)));
  for (absl::string_view tag : absl::StrSplit(req.get_header_value("If-None-Match"), ',')) {
    tag = absl::StripAsciiWhitespace(tag);
    if (tag == etag || tag == "*" || tag == absl::StrCat("W/", etag)) {
      res.status = 304;
      return;
    }
  }
  res.set_content(std::move(body), std::string(content_type));
}

BroadcastPages::BroadcastPages(Broadcast* broadcast, tournament::TournamentHost* tournaments,
                               FeedLimits limits, std::vector<std::string> trusted_proxies)
    : broadcast_(broadcast),
      tournaments_(tournaments),
      trusted_proxies_(std::move(trusted_proxies)),
      // One loop on a thread of its own: one per core (Followers::
      // LoopPerCore) measured worse on this 2-core machine, where the
      // second loop's CPU starved the viewers' client and they were cut off
      // (tests/bench/README.md "The broadcast").
      followers_(broadcast, limits, /*loops=*/1) {}

void BroadcastPages::Route(httplib::Server& http) {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get("/broadcast", [this](Req q, Res s) { Rounds(q, s); });
  http.Get("/broadcast/events", [this](Req q, Res s) { Events(q, s); });
  http.Get(R"(/broadcast/([^/]+)/([0-9]+))", [this](Req q, Res s) { Round(q, s, false); });
  http.Get(R"(/broadcast/([^/]+)/([0-9]+)\.sgf)", [this](Req q, Res s) { Round(q, s, true); });
  http.Get(R"(/broadcast/([^/]+)/([0-9]+)/([0-9]+))", [this](Req q, Res s) { Board(q, s, false); });
  http.Get(R"(/broadcast/([^/]+)/([0-9]+)/([0-9]+)\.sgf)",
           [this](Req q, Res s) { Board(q, s, true); });
}

void BroadcastPages::Rounds(const httplib::Request& req, httplib::Response& res) {
  const Lang lang = LangOf(req);
  // Read before the games: each is shown as of this position or later.
  const std::string after = broadcast_->EventId(broadcast_->released());
  absl::StatusOr<console::Rounds> rounds = RoundsOf(tournaments_);
  if (!rounds.ok()) return SendError(res, rounds.status());
  std::string playing, finished;
  bool live = false;
  for (const auto& [key, boards] : *rounds) {
    int in_play = 0;
    for (const auto& [board, game] : boards.games) {
      absl::StatusOr<PublicGame> g = broadcast_->Game(game);
      if (!g.ok() || (!g->result.has_value() && !g->cancelled)) ++in_play;
    }
    const std::string item = absl::StrCat(
        "<li><a href=\"/broadcast/", Escape(key.first), "/", key.second, LangQuery(lang), "\">",
        Escape(boards.title), " · ", Escape(Fill(BroadcastWord("round", lang), key.second)),
        "</a> <span class=\"boards\">",
        Escape(Fill(BroadcastWord("boards", lang), static_cast<int>(boards.games.size()))),
        "</span></li>\n");
    absl::StrAppend(in_play > 0 ? &playing : &finished, item);
    live = live || in_play > 0;
  }
  std::string body = absl::StrCat("<h2>", Escape(BroadcastWord("rounds", lang)), "</h2>");
  absl::StrAppend(&body, playing.empty()
                             ? absl::StrCat("<p>", Escape(BroadcastWord("none", lang)), "</p>")
                             : absl::StrCat("<ul class=\"rounds\">", playing, "</ul>"));
  if (!finished.empty()) {
    absl::StrAppend(&body, "<h2>", Escape(BroadcastWord("finishedRounds", lang)),
                    "</h2><ul class=\"rounds\">", finished, "</ul>");
  }
  SendCacheable(req, res,
                Frame(BroadcastWord("title", lang), body, lang, broadcast_->delay(), "*", after),
                "text/html; charset=utf-8", live ? kLiveMaxAge : kFinishedMaxAge);
}

void BroadcastPages::Round(const httplib::Request& req, httplib::Response& res, bool sgf) {
  const Lang lang = LangOf(req);
  absl::StatusOr<std::pair<std::string, int>> key = RoundOf(req);
  if (!key.ok()) return SendError(res, key.status());
  absl::StatusOr<console::Rounds> rounds = RoundsOf(tournaments_);
  if (!rounds.ok()) return SendError(res, rounds.status());
  auto found = rounds->find(*key);
  if (found == rounds->end()) {
    return SendError(res, absl::NotFoundError(absl::StrCat("no round ", key->second,
                                                           " of tournament '", key->first, "'")));
  }
  const std::string after = broadcast_->EventId(broadcast_->released());
  bool live = false;
  std::string rows, collection, games;
  for (const auto& [board, game] : found->second.games) {
    absl::StatusOr<PublicGame> g = broadcast_->Game(game, sgf);
    absl::StrAppend(&games, games.empty() ? "" : " ", game);
    if (!g.ok()) {
      live = true;
      absl::StrAppend(&rows, "<tr><td>", board, "</td><td colspan=\"5\">",
                      Escape(BroadcastWord("notStarted", lang)), "</td></tr>\n");
      continue;
    }
    live = live || (!g->result.has_value() && !g->cancelled);
    if (sgf) {
      absl::StrAppend(&collection, g->sgf);
      continue;
    }
    const bool timed = g->created.has_time_control();
    absl::StrAppend(&rows, "<tr", GameAttributes(*g), "><td><a href=\"/broadcast/",
                    Escape(key->first), "/", key->second, "/", board, LangQuery(lang), "\">", board,
                    "</a></td><td class=\"player\">", PlayerCell(g->created.black()),
                    "</td><td class=\"player\">", PlayerCell(g->created.white()),
                    "</td><td class=\"num move\">", g->state.move_number(),
                    "</td><td class=\"num clocks\">", timed ? ClocksCell(g->state, lang) : "",
                    "</td><td>", ResultCell(*g, lang), "</td></tr>\n");
  }
  const absl::Duration max_age = live ? kLiveMaxAge : kFinishedMaxAge;
  if (sgf) return SendCacheable(req, res, collection, "application/x-go-sgf", max_age);
  const std::string title =
      absl::StrCat(found->second.title, " · ", Fill(BroadcastWord("round", lang), key->second));
  std::string body = absl::StrCat("<p><a href=\"/broadcast", LangQuery(lang), "\">",
                                  Escape(BroadcastWord("back", lang)),
                                  "</a> · <a href=\"/broadcast/", Escape(key->first), "/",
                                  key->second, ".sgf\">", Escape(BroadcastWord("sgfRound", lang)),
                                  "</a></p>\n<div class=\"scroll\"><table><thead><tr>");
  for (const char* column : {"board", "black", "white", "move", "clocks", "result"}) {
    absl::StrAppend(&body, "<th>", Escape(BroadcastWord(column, lang)), "</th>");
  }
  absl::StrAppend(&body, "</tr></thead><tbody>\n", rows, "</tbody></table></div>");
  SendCacheable(req, res, Frame(title, body, lang, broadcast_->delay(), games, after),
                "text/html; charset=utf-8", max_age);
}

void BroadcastPages::Board(const httplib::Request& req, httplib::Response& res, bool sgf) {
  const Lang lang = LangOf(req);
  absl::StatusOr<std::pair<std::string, int>> key = RoundOf(req);
  if (!key.ok()) return SendError(res, key.status());
  int board = 0;
  (void)absl::SimpleAtoi(std::string(req.matches[3]), &board);
  absl::StatusOr<console::Rounds> rounds = RoundsOf(tournaments_);
  if (!rounds.ok()) return SendError(res, rounds.status());
  auto found = rounds->find(*key);
  if (found == rounds->end() || found->second.games.count(board) == 0) {
    return SendError(res, absl::NotFoundError(absl::StrCat("no board ", board, " in round ",
                                                           key->second, " of '", key->first, "'")));
  }
  const std::string& game = found->second.games.at(board);
  const std::string after = broadcast_->EventId(broadcast_->released());
  absl::StatusOr<PublicGame> g = broadcast_->Game(game, sgf);
  if (!g.ok()) return SendError(res, g.status());
  const absl::Duration max_age =
      g->result.has_value() || g->cancelled ? kFinishedMaxAge : kLiveMaxAge;
  if (sgf) return SendCacheable(req, res, g->sgf, "application/x-go-sgf", max_age);
  const std::string title =
      absl::StrCat(found->second.title, " · ", Fill(BroadcastWord("round", lang), key->second),
                   " · ", Fill(BroadcastWord("boardNo", lang), board));
  std::string body = absl::StrCat(
      "<p><a href=\"/broadcast/", Escape(key->first), "/", key->second, LangQuery(lang), "\">",
      Escape(BroadcastWord("back", lang)), "</a> · <a href=\"/broadcast/", Escape(key->first), "/",
      key->second, "/", board, ".sgf\">", Escape(BroadcastWord("sgfGame", lang)), "</a></p>\n",
      "<dl class=\"players\"", GameAttributes(*g), "><dt>", Escape(BroadcastWord("black", lang)),
      "</dt><dd>", PlayerCell(g->created.black()), "</dd><dt>",
      Escape(BroadcastWord("white", lang)), "</dt><dd>", PlayerCell(g->created.white()),
      "</dd><dt>", Escape(BroadcastWord("move", lang)), "</dt><dd class=\"move\">",
      g->state.move_number(), "</dd>");
  if (g->created.has_time_control()) {
    absl::StrAppend(&body, "<dt>", Escape(BroadcastWord("clocks", lang)),
                    "</dt><dd class=\"clocks\">", ClocksCell(g->state, lang), "</dd>");
  }
  const v1::Tally& penalty = g->state.penalty_stones();
  if (penalty.black() > 0 || penalty.white() > 0) {
    absl::StrAppend(&body, "<dt>", Escape(BroadcastWord("penalty", lang)), "</dt><dd>",
                    penalty.black(), " / ", penalty.white(), "</dd>");
  }
  absl::StrAppend(&body, "<dt>", Escape(BroadcastWord("result", lang)), "</dt><dd>",
                  ResultCell(*g, lang), "</dd></dl>\n", BoardSvg(g->state, lang));
  SendCacheable(req, res, Frame(title, body, lang, broadcast_->delay(), game, after),
                "text/html; charset=utf-8", max_age);
}

void BroadcastPages::Events(const httplib::Request& req, httplib::Response& res) {
  // Without an id: a snapshot of each game first (Broadcast::kSnapshot).
  uint64_t after = Broadcast::kSnapshot;
  const std::string resume = req.has_header("Last-Event-ID") ? req.get_header_value("Last-Event-ID")
                                                             : req.get_param_value("after");
  if (!resume.empty()) {
    absl::StatusOr<uint64_t> position = broadcast_->ParseEventId(resume);
    if (!position.ok()) return SendError(res, position.status());
    after = *position;
  }
  const std::string viewer =
      ViewerAddress(req.remote_addr, req.get_header_value("X-Forwarded-For"), trusted_proxies_);
  // The broadcast keeps no places for officials: every viewer is one.
  if (absl::Status s = followers_.Reserve(viewer, /*official=*/true); !s.ok()) {
    res.set_header("Retry-After", absl::StrCat(absl::ToInt64Seconds(kFeedRetryAfter)));
    return SendError(res, s);
  }
  auto parked = std::make_shared<bool>(false);
  res.set_header("Cache-Control", "no-store");
  // A proxy in front (nginx) passes each event on as it comes, unbuffered.
  res.set_header("X-Accel-Buffering", "no");
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, after, parked, viewer](size_t, httplib::DataSink&) {
        *parked = true;
        GuardedServer::HandOver([this, after, viewer](std::unique_ptr<Connection> page) {
          followers_.Park(std::move(page), after, viewer);
        });
        return false;
      },
      [this, parked, viewer](bool) {
        if (!*parked) followers_.Unreserve(viewer);
      });
}

}  // namespace arbiter::service::console
