// Real games as event streams, for property tests and benchmarks: an SGF
// game's moves ten seconds apart, optionally with clock presses, with
// incidents woven in, and with two passes and the count at the end.
#ifndef ARBITER_TESTS_ENGINE_SGF_EVENTS_H_
#define ARBITER_TESTS_ENGINE_SGF_EVENTS_H_

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/sgf.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::testing {

// An event `seconds` after 2026-05-01T09:00:00Z.
inline v1::Event EventAt(int seconds) {
  v1::Event e;
  ToProto(absl::FromCivil(absl::CivilSecond(2026, 5, 1, 9, 0, 0), absl::UTCTimeZone()) +
              absl::Seconds(seconds),
          e.mutable_at());
  return e;
}

// The game's moves as events ten seconds apart, with incidents woven in:
// a phone ring (White), a takeback (Black), an undecided
// disturbance (Black); then two passes and the count when `count`.
inline std::vector<v1::Event> GameEvents(const SgfGame& sgf, bool incidents, bool count,
                                         bool presses = false) {
  std::vector<v1::Event> events;
  v1::Event created = EventAt(0);
  v1::GameCreated* g = created.mutable_game_created();
  g->set_game_id("property");
  g->set_ruleset("cn-2002");
  g->set_board_size(sgf.board_size);
  g->set_venue(v1::GameCreated::SAME_SITE);
  *g->mutable_scheduled_start() = created.at();
  g->mutable_time_control()->mutable_main_time()->set_seconds(7200);
  g->mutable_time_control()->mutable_byo_yomi()->set_periods(5);
  g->mutable_time_control()->mutable_byo_yomi()->mutable_period_time()->set_seconds(60);
  for (const int v : sgf.setup_black) g->mutable_setup()->add_black(PointName(v, sgf.board_size));
  for (const int v : sgf.setup_white) g->mutable_setup()->add_white(PointName(v, sgf.board_size));
  if (sgf.player_to_move != v1::COLOR_UNSPECIFIED) {
    g->mutable_setup()->set_first_to_move(sgf.player_to_move);
  } else if (!sgf.moves.empty()) {
    g->mutable_setup()->set_first_to_move(sgf.moves[0].color);
  }
  events.push_back(created);
  v1::Event started = EventAt(0);
  started.mutable_game_started();
  events.push_back(started);
  int t = 0;
  bool taken_back = false;
  for (size_t i = 0; i < sgf.moves.size(); ++i) {
    const SgfMove& m = sgf.moves[i];
    v1::Event e = EventAt(t += 10);
    if (m.vertex) {
      e.mutable_move()->set_color(m.color);
      e.mutable_move()->set_point(PointName(*m.vertex, sgf.board_size));
    } else {
      e.mutable_pass()->set_color(m.color);
    }
    events.push_back(e);
    if (presses) {
      v1::Event p = EventAt(t += 1);
      p.mutable_clock_press()->set_color(m.color);
      events.push_back(p);
    }
    if (!incidents) continue;
    if (i == 20) {
      v1::Event p = EventAt(t += 1);
      p.mutable_phone_rang()->set_color(v1::WHITE);
      events.push_back(p);
    }
    if (i >= 40 && !taken_back && m.color == v1::BLACK && m.vertex) {
      taken_back = true;
      v1::Event tb = EventAt(t += 1);
      tb.mutable_takeback()->set_color(v1::BLACK);
      events.push_back(tb);  // void: the stone stays where it was first placed
    }
    if (i == 60) {
      v1::Event d = EventAt(t += 1);
      d.mutable_misconduct()->set_color(v1::BLACK);
      d.mutable_misconduct()->set_kind(v1::Misconduct::DISTURBANCE);
      events.push_back(d);
    }
  }
  if (count) {
    const v1::Color last = sgf.moves.empty() ? v1::WHITE : sgf.moves.back().color;
    for (const v1::Color c : {Opponent(last), last}) {
      v1::Event p = EventAt(t += 10);
      p.mutable_pass()->set_color(c);
      events.push_back(p);
    }
    v1::Event d = EventAt(t += 10);
    d.mutable_dead_stones();
    events.push_back(d);
  }
  return events;
}

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_SGF_EVENTS_H_
