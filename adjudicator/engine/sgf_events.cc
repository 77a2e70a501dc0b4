#include "adjudicator/engine/sgf_events.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "google/protobuf/util/time_util.h"
#include "rulesdb/rules.h"

namespace arbiter {
namespace {

// The day DT gives, and whether DT named only a month or a year.
struct DtDay {
  absl::CivilDay day;
  bool partial = false;
};

// Only four digits make a year: "%Y" alone would read DT[200201-3-2] as the
// year 200201 (found by the sgf fuzzer), beyond any event's timestamp.
bool IsYear(absl::string_view s) {
  return s.size() == 4 && std::all_of(s.begin(), s.end(), absl::ascii_isdigit) && s != "0000";
}

// DT is free text in practice; its leading YYYY-MM-DD, at 00:00 UTC, is the
// scheduled start. SGF FF[4] also allows partial dates, "YYYY-MM" and
// "YYYY", first in a list ("1996-05,06"): the span's first day. Without any
// the caller gives the day: a made-up date would be a false record (an
// auditor would read it as the day of play).
std::optional<DtDay> DayOf(const std::string& date) {
  absl::Time start;
  std::string error;
  if (date.size() >= 10 && date[4] == '-' && IsYear(absl::string_view(date).substr(0, 4)) &&
      absl::ParseTime("%Y-%m-%d", date.substr(0, 10), absl::UTCTimeZone(), &start, &error)) {
    return DtDay{absl::ToCivilDay(start, absl::UTCTimeZone())};
  }
  const absl::string_view first = absl::string_view(date).substr(0, date.find(','));
  int year = 0;
  int month = 1;
  if (!IsYear(first.substr(0, 4)) || !absl::SimpleAtoi(first.substr(0, 4), &year)) {
    return std::nullopt;
  }
  const bool year_month = first.size() == 7 && first[4] == '-' && absl::ascii_isdigit(first[5]) &&
                          absl::ascii_isdigit(first[6]) &&
                          absl::SimpleAtoi(first.substr(5), &month) && month >= 1 && month <= 12;
  if (first.size() != 4 && !year_month) return std::nullopt;
  return DtDay{absl::CivilDay(year, month, 1), true};
}

// The last instant an event can carry (google.protobuf.Timestamp's range).
absl::Status CheckNotPastTheCalendar(absl::Time t, SgfPosition where) {
  if (t <= absl::FromUnixSeconds(google::protobuf::util::TimeUtil::kTimestampMaxSeconds)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat(PositionText(where), ": the record's times run past the year 9999"));
}

// What each move of a timed record used, and whether the record's clock is
// one the adjudicator can keep: a time control under which every move ends
// before its flag, as the record says the game went on.
struct RecordedTimes {
  std::vector<absl::Duration> used;  // one per move
  bool consistent = true;
};

// Byo-yomi as OT writes it: "5x30 byo-yomi", "3x60 byo-yomi" (the form of
// KGS, CGoban, OGS and the readers of their records: N periods of T
// seconds), case and spaces aside. Anything else is not byo-yomi.
std::optional<v1::ByoYomi> ByoYomiOf(const std::string& overtime) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(overtime));
  absl::string_view ot = lower;
  if (!absl::ConsumeSuffix(&ot, "byo-yomi") && !absl::ConsumeSuffix(&ot, "byoyomi")) {
    return std::nullopt;
  }
  const std::vector<absl::string_view> parts = absl::StrSplit(ot, 'x');
  int periods = 0;
  double seconds = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[0]), &periods) ||
      !absl::SimpleAtod(absl::StripAsciiWhitespace(parts[1]), &seconds) || periods < 1 ||
      periods > 1000 || !(seconds > 0) || seconds > 24 * 3600) {
    return std::nullopt;
  }
  v1::ByoYomi byo;
  byo.set_periods(periods);
  ToProto(absl::Milliseconds(std::llround(seconds * 1000)), byo.mutable_period_time());
  if (FromProto(byo.period_time()) <= absl::ZeroDuration()) return std::nullopt;
  return byo;
}

// A record's main-time clock: what each move used is what its player's
// remaining time lost (a remaining time that went up, as after a
// correction, costs nothing). Consistent when each player's remaining
// times only go down and stay above zero: a clock at zero has flagged, and
// as main time the adjudicator would rule a loss on time where the record
// plays on (found by the sgf fuzzer), so such a record keeps its moves'
// times but gets no time control.
RecordedTimes ReadTimes(const SgfGame& game, absl::Duration main_time) {
  RecordedTimes out;
  absl::Duration black_left = main_time;
  absl::Duration white_left = main_time;
  for (const SgfMove& move : game.moves) {
    absl::Duration used = absl::ZeroDuration();
    if (move.time_left.has_value()) {
      absl::Duration& left = move.color == v1::BLACK ? black_left : white_left;
      if (*move.time_left > left || *move.time_left <= absl::ZeroDuration()) {
        out.consistent = false;
      }
      used = std::max(absl::ZeroDuration(), left - *move.time_left);
      left = *move.time_left;
    }
    out.used.push_back(used);
  }
  return out;
}

// A byo-yomi clock: a node without OB/OW is main time (BL/WL the main time
// left); one with them is byo-yomi, OB/OW the periods left with the current
// one (1 is the last) and BL/WL the time left in it. A move then used the
// main time left, the periods it dropped and what it took of the current
// one: t = main + (before - after) × T + (T - left), which the adjudicator
// (12.3: a move under T costs nothing, t ≥ T costs ⌊t / T⌋ periods) charges
// as exactly the periods the record shows. Inconsistent when a count rises
// or reaches zero, a period's time is not within (0, T], or main time
// follows byo-yomi.
RecordedTimes ReadByoYomiTimes(const SgfGame& game, absl::Duration main_time,
                               const v1::ByoYomi& byo) {
  struct Clock {
    absl::Duration main;
    int periods;
    bool in_byo_yomi = false;
  };
  const absl::Duration period = FromProto(byo.period_time());
  Clock clocks[2] = {{main_time, byo.periods()}, {main_time, byo.periods()}};
  RecordedTimes out;
  for (const SgfMove& move : game.moves) {
    absl::Duration used = absl::ZeroDuration();
    if (move.time_left.has_value()) {
      Clock& c = clocks[move.color == v1::WHITE ? 1 : 0];
      const absl::Duration left = *move.time_left;
      if (move.overtime_count.has_value()) {
        const int after = *move.overtime_count;
        if (after < 1 || after > c.periods || left <= absl::ZeroDuration() || left > period) {
          out.consistent = false;
        } else {
          used = c.main + (c.periods - after) * period + (period - left);
          c = {absl::ZeroDuration(), after, true};
        }
      } else if (c.in_byo_yomi || left <= absl::ZeroDuration() || left > c.main) {
        out.consistent = false;
      } else {
        used = c.main - left;
        c.main = left;
      }
    }
    out.used.push_back(used);
  }
  return out;
}

// Refuses a record whose main line breaks a rule of play.
absl::Status CheckMoves(const SgfGame& game, v1::Color first) {
  Board board(game.board_size);
  for (const int v : game.setup_black) board.Place(v1::BLACK, v);
  for (const int v : game.setup_white) board.Place(v1::WHITE, v);
  board.RecordSituation(first);
  v1::Color turn = first;
  for (const SgfMove& move : game.moves) {
    // The adjudicator rules a move out of turn as an incident (and may end
    // the game on it), so a record must alternate to be imported as play
    // (found by fuzzing: `import-sgf | adjudicate` refused such records).
    if (move.color != turn) {
      return absl::InvalidArgumentError(absl::StrCat(
          PositionText(move.position), ": ", move.color == v1::BLACK ? "Black" : "White",
          " moves out of turn (the record needs a move or pass by the other side first)"));
    }
    turn = move.color == v1::BLACK ? v1::WHITE : v1::BLACK;
    if (!move.vertex.has_value()) {
      board.Pass(move.color);
      continue;
    }
    const Legality legality = board.Check(move.color, *move.vertex);
    if (legality != Legality::kLegal) {
      return absl::InvalidArgumentError(absl::StrCat(
          PositionText(move.position),
          ": illegal move: ", move.color == v1::BLACK ? "Black" : "White", " at ",
          PointName(*move.vertex, game.board_size), " (", LegalityName(legality), ")"));
    }
    board.Play(move.color, *move.vertex);
  }
  return absl::OkStatus();
}

// "B+R" / "W+Resign": the winner's opponent resigned.
std::optional<v1::Color> Resigned(const std::string& result) {
  const std::string re = absl::AsciiStrToUpper(result);
  if (re != "B+R" && re != "B+RESIGN" && re != "W+R" && re != "W+RESIGN") return std::nullopt;
  return re[0] == 'B' ? v1::WHITE : v1::BLACK;
}

// The adjudicator counts komi in quarter stones, i.e. half points, within
// the board's area; refuse here what it would refuse (found by fuzzing).
absl::Status CheckKomi(const SgfGame& game) {
  if (!game.komi.has_value()) return absl::OkStatus();
  const double half_points = *game.komi * 2;
  if (!std::isfinite(half_points) || half_points != std::round(half_points) ||
      std::abs(half_points) > 4.0 * game.board_size * game.board_size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "KM[", *game.komi, "]: komi must be a whole number of half points within the board"));
  }
  return absl::OkStatus();
}

// The record's clocks: its main time, byo-yomi where declared and read
// consistently, and each move's time used.
struct SgfClocks {
  bool timed = false;
  absl::Duration main_time = absl::ZeroDuration();
  std::optional<v1::ByoYomi> byo_yomi;  // set only when read consistently
  RecordedTimes times;
};

SgfClocks ClocksOf(const SgfGame& game) {
  SgfClocks c;
  const std::optional<v1::ByoYomi> byo_yomi = ByoYomiOf(game.overtime);
  // The main time is TM, or else the largest main-time remaining time seen
  // rounded up to a whole minute (with byo-yomi, nodes with OB/OW are not
  // main time).
  for (const SgfMove& move : game.moves) {
    if (!move.time_left.has_value()) continue;
    c.timed = true;
    if (!byo_yomi.has_value() || !move.overtime_count.has_value()) {
      c.main_time = std::max(c.main_time, *move.time_left);
    }
  }
  if (game.time_limit.has_value() && *game.time_limit >= c.main_time) {
    c.main_time = *game.time_limit;
  } else if (c.main_time > absl::ZeroDuration()) {
    c.main_time = absl::Minutes(std::ceil(absl::ToDoubleMinutes(c.main_time)));
  }
  // A record that declares byo-yomi is read as byo-yomi or not at all: its
  // period times are no main time. Either way the moves keep their times.
  c.times = byo_yomi.has_value() ? ReadByoYomiTimes(game, c.main_time, *byo_yomi)
                                 : ReadTimes(game, c.main_time);
  if (!c.times.consistent && byo_yomi.has_value()) {
    c.times.used = ReadTimes(game, c.main_time).used;
  }
  if (byo_yomi.has_value() && c.times.consistent) c.byo_yomi = byo_yomi;
  c.timed = c.timed && (c.byo_yomi.has_value() || c.main_time > absl::ZeroDuration());
  return c;
}

// The record's gameCreated: players, board, komi, setup, and its clocks
// where they are known.
v1::GameCreated CreatedOf(const SgfGame& game, std::string_view game_id, absl::Time start,
                          v1::Color first, const SgfClocks& clocks) {
  v1::GameCreated created;
  created.set_game_id(std::string(game_id));
  created.set_ruleset(kDefaultRuleset);
  created.set_board_size(game.board_size);
  created.mutable_black()->set_name(game.black_name);
  created.mutable_black()->set_rank(game.black_rank);
  created.mutable_white()->set_name(game.white_name);
  created.mutable_white()->set_rank(game.white_rank);
  created.set_venue(v1::GameCreated::SAME_SITE);
  ToProto(start, created.mutable_scheduled_start());
  if (clocks.timed && clocks.times.consistent) {
    ToProto(clocks.main_time, created.mutable_time_control()->mutable_main_time());
    if (clocks.byo_yomi.has_value())
      *created.mutable_time_control()->mutable_byo_yomi() = *clocks.byo_yomi;
  }
  if (game.komi.has_value()) created.set_komi_stones(*game.komi / 2);  // a point is half a stone
  if (!game.setup_black.empty() || !game.setup_white.empty() || first != v1::BLACK) {
    v1::Setup& setup = *created.mutable_setup();
    for (const int v : game.setup_black) setup.add_black(PointName(v, game.board_size));
    for (const int v : game.setup_white) setup.add_white(PointName(v, game.board_size));
    setup.set_first_to_move(first);
  }
  return created;
}

}  // namespace

std::optional<absl::CivilDay> SgfDate(const SgfGame& game) {
  const std::optional<DtDay> dt = DayOf(game.date);
  if (!dt.has_value()) return std::nullopt;
  return dt->day;
}

std::string SgfDateNote(const SgfGame& game) {
  const std::optional<DtDay> dt = DayOf(game.date);
  if (!dt.has_value() || !dt->partial) return "";
  return absl::StrCat("DT[", game.date, "] names no day: the game is dated ",
                      absl::FormatCivilTime(dt->day), ", the first day of the span it names");
}

absl::StatusOr<std::vector<v1::Event>> SgfToEvents(const SgfGame& game, std::string_view game_id,
                                                   std::optional<absl::CivilDay> undated) {
  // Without PL, a record whose first move is White's has White start.
  v1::Color first = game.player_to_move;
  if (first == v1::COLOR_UNSPECIFIED) {
    first = !game.moves.empty() && game.moves[0].color == v1::WHITE ? v1::WHITE : v1::BLACK;
  }
  if (absl::Status s = CheckMoves(game, first); !s.ok()) return s;
  if (absl::Status s = CheckKomi(game); !s.ok()) return s;

  const std::optional<absl::CivilDay> day = SgfDate(game).has_value() ? SgfDate(game) : undated;
  if (!day.has_value()) {
    return absl::InvalidArgumentError(
        game.date.empty()
            ? "the record has no date (DT[YYYY-MM-DD]), so its game cannot be dated"
            : absl::StrCat("DT[", game.date,
                           "] gives no date (YYYY-MM-DD), so its game cannot be dated"));
  }
  const absl::Time start = absl::FromCivil(*day, absl::UTCTimeZone());
  const SgfClocks clocks = ClocksOf(game);
  const bool timed = clocks.timed;

  std::vector<v1::Event> events;
  v1::Event& created_event = events.emplace_back();
  ToProto(start, created_event.mutable_at());
  *created_event.mutable_game_created() = CreatedOf(game, game_id, start, first, clocks);

  v1::Event& started = events.emplace_back();
  ToProto(start, started.mutable_at());
  started.mutable_game_started();

  absl::Time now = start;
  for (size_t i = 0; i < game.moves.size(); ++i) {
    const SgfMove& move = game.moves[i];
    now += timed ? clocks.times.used[i] : absl::Seconds(1);
    // Remaining times that go up and down again add up without bound.
    if (absl::Status s = CheckNotPastTheCalendar(now, move.position); !s.ok()) return s;
    v1::Event& event = events.emplace_back();
    ToProto(now, event.mutable_at());
    if (move.vertex.has_value()) {
      event.mutable_move()->set_color(move.color);
      event.mutable_move()->set_point(PointName(*move.vertex, game.board_size));
    } else {
      event.mutable_pass()->set_color(move.color);
    }
  }
  if (const std::optional<v1::Color> loser = Resigned(game.result); loser.has_value()) {
    const absl::Time at = timed ? now : now + absl::Seconds(1);
    const SgfPosition last = game.moves.empty() ? SgfPosition{} : game.moves.back().position;
    if (absl::Status s = CheckNotPastTheCalendar(at, last); !s.ok()) return s;
    v1::Event& resign = events.emplace_back();
    ToProto(at, resign.mutable_at());
    resign.mutable_resign()->set_color(*loser);
  }
  return events;
}

}  // namespace arbiter
