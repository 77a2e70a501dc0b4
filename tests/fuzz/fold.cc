// Fuzz target fold: the fuzz bytes read as a script of events on a small
// board, so that mutations explore deep game states (captures, ko, clocks
// running out, incidents and the arbiter's decisions on them) rather than
// stopping at the JSON syntax. Most choices are steered towards valid
// events (the right colour, a pending ruling's own options); some are left
// wrong on purpose, to exercise the refusals.
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "arbiter/v1/events.pb.h"
#include "tests/fuzz/checked_fold.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arbiter::fuzz {
namespace {

// Reads the fuzz bytes as small choices; zeros once they run out.
class Script {
 public:
  Script(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool done() const { return size_ == 0; }
  uint8_t Byte() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }
  int Below(int n) { return Byte() % n; }

 private:
  const uint8_t* data_;
  size_t size_;
};

constexpr int kMaxEvents = 512;

v1::Color Other(v1::Color c) { return c == v1::BLACK ? v1::WHITE : v1::BLACK; }

class Driver {
 public:
  Driver(const uint8_t* data, size_t size) : s_(data, size) {}

  void Run() {
    v1::Event created = Next();
    GameCreated(created.mutable_game_created());
    size_ = created.game_created().board_size();
    if (!fold_.Open(created.game_created())) return;
    if (!fold_.Apply(created)) return;
    for (int i = 0; i < kMaxEvents && !s_.done(); ++i) {
      v1::Event e = Next();
      Fill(e);
      fold_.Apply(e);
    }
    fold_.CheckReplay();
  }

 private:
  // An event some seconds after the last one; now and then one that goes
  // back in time (bad input) or shares the instant.
  v1::Event Next() {
    const uint8_t b = s_.Byte();
    if (b == 0xff) {
      now_ -= absl::Seconds(5);
    } else {
      now_ += absl::Seconds(b % 90) + absl::Milliseconds(b & 0x80 ? 500 : 0);
    }
    v1::Event e;
    ToProto(now_, e.mutable_at());
    return e;
  }

  void GameCreated(v1::GameCreated* g) {
    g->set_game_id("fuzz");
    g->set_ruleset(s_.Below(2) == 0 ? "cn-2002" : "cn-1988");
    // Now and then the published first version, which games pinned to it
    // are still judged under.
    if (s_.Below(4) == 0) g->set_ruleset_version(g->ruleset() == "cn-2002" ? "2002.1" : "1988.1");
    const int size = s_.Below(8);
    g->set_board_size(size == 0 ? 13 : size == 1 ? 7 : 9);  // 7: refused
    g->set_venue(static_cast<v1::GameCreated::Venue>(s_.Below(4)));
    ToProto(absl::FromUnixSeconds(1'780'000'000) + absl::Seconds(s_.Below(4) * 300),
            g->mutable_scheduled_start());
    g->set_live(s_.Below(2) == 0);
    v1::TimeControl* t = g->mutable_time_control();
    switch (s_.Below(5)) {
      case 0:
        g->clear_time_control();
        break;
      case 1:
        t->mutable_main_time()->set_seconds(120);
        t->mutable_byo_yomi()->set_periods(1 + s_.Below(3));
        t->mutable_byo_yomi()->mutable_period_time()->set_seconds(30);
        break;
      case 2:
        t->mutable_main_time()->set_seconds(60);
        t->mutable_moves_in_time()->set_moves(1 + s_.Below(5));
        t->mutable_moves_in_time()->mutable_period()->set_seconds(90);
        break;
      case 3:
        t->mutable_byo_yomi()->set_periods(1);
        t->mutable_byo_yomi()->mutable_period_time()->set_seconds(20);
        break;
      default:
        t->mutable_main_time()->set_seconds(300);
        break;
    }
    switch (s_.Below(3)) {
      case 0:
        g->set_komi_stones(3.75);
        break;
      case 1:
        g->set_komi_stones(s_.Below(8) * 0.25);
        break;
      default:
        break;
    }
    g->mutable_black()->set_name("B");
    g->mutable_white()->set_name("W");
    if (s_.Below(4) == 0) {
      g->mutable_setup()->add_black("C3");
      g->mutable_setup()->add_black("E5");
      g->mutable_setup()->set_first_to_move(v1::WHITE);
    }
  }

  // Usually the side to move, sometimes the other side, rarely none.
  v1::Color Color() {
    const v1::Color to_move = fold_.adjudicator().State().to_move();
    switch (s_.Below(8)) {
      case 0:
        return v1::COLOR_UNSPECIFIED;
      case 1:
      case 2:
        return Other(to_move == v1::COLOR_UNSPECIFIED ? v1::BLACK : to_move);
      default:
        return to_move;
    }
  }

  // A point on the board, or now and then one that is not.
  std::string Point() {
    const int b = s_.Byte();
    if (b == 0xfe) return "";
    if (b == 0xff) return "Z99";
    return PointName(b % (size_ * size_), size_);
  }

  // A pending ruling's number and one of its options, mostly.
  void Decision(v1::ArbiterDecision* d) {
    std::vector<const v1::Ruling*> pending;
    for (const v1::Ruling& r : fold_.adjudicator().rulings()) {
      if (r.pending()) pending.push_back(&r);
    }
    if (pending.empty() || s_.Below(8) == 0) {
      d->set_ruling(s_.Below(6));
      d->set_choice(s_.Below(2) ? "WARNING" : "LOSS");
      return;
    }
    const v1::Ruling& r = *pending[s_.Below(static_cast<int>(pending.size()))];
    d->set_ruling(r.number());
    if (r.options_size() > 0) d->set_choice(r.options(s_.Below(r.options_size())).id());
    d->set_note("fuzz");
  }

  void Fill(v1::Event& e) {
    switch (s_.Below(47)) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
      case 6:
      case 7:
      case 8:
      case 9: {
        v1::Move* m = e.mutable_move();
        m->set_color(Color());
        m->set_point(Point());
        break;
      }
      case 10:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
        e.mutable_clock_press()->set_color(Color());
        e.mutable_clock_press()->set_captures_not_cleared(s_.Below(16) == 0);
        break;
      case 16:
      case 17:
        e.mutable_pass()->set_color(Color());
        break;
      case 18:
        e.mutable_takeback()->set_color(Color());
        break;
      case 19: {
        v1::CaptureError* c = e.mutable_capture_error();
        c->set_color(Color());
        c->set_kind(static_cast<v1::CaptureError::Kind>(s_.Below(3)));
        for (int i = s_.Below(3); i > 0; --i) c->add_points(Point());
        break;
      }
      case 20: {
        v1::StonesDisplaced* d = e.mutable_stones_displaced();
        for (int i = 1 + s_.Below(2); i > 0; --i) {
          v1::Displacement* p = d->add_points();
          p->set_from(Point());
          if (s_.Below(4) != 0) p->set_to(Point());
        }
        d->set_agreement(static_cast<v1::StonesDisplaced::Agreement>(s_.Below(4)));
        d->set_by_color(Color());
        d->set_deliberate(s_.Below(4) == 0);
        break;
      }
      case 21:
        e.mutable_board_scattered()->set_cause(static_cast<v1::BoardScattered::Cause>(s_.Below(4)));
        e.mutable_board_scattered()->set_by_color(Color());
        e.mutable_board_scattered()->set_reconstructed(s_.Below(2) == 0);
        break;
      case 22:
        e.mutable_phone_rang()->set_color(Color());
        break;
      case 23:
        e.mutable_phone_viewed()->set_color(Color());
        break;
      case 24:
        e.mutable_smoking()->set_color(Color());
        break;
      case 25: {
        v1::Misconduct* m = e.mutable_misconduct();
        m->set_color(Color());
        m->set_kind(static_cast<v1::Misconduct::Kind>(s_.Below(6)));
        static const char* const kChoices[] = {"", "", "WARNING", "LOSS", "BOTH_LOSE", "x"};
        m->set_decision(kChoices[s_.Below(6)]);
        break;
      }
      case 26:
        e.mutable_left_seat()->set_color(Color());
        e.mutable_left_seat()->set_permitted(s_.Below(2) == 0);
        break;
      case 27:
        e.mutable_returned_seat()->set_color(Color());
        e.mutable_returned_seat()->set_permitted(s_.Below(2) == 0);
        break;
      case 28:
        e.mutable_time_expired()->set_color(Color());
        e.mutable_time_expired()->set_pass_requested(s_.Below(2) == 0);
        break;
      case 29: {
        v1::ClockMalfunction* c = e.mutable_clock_malfunction();
        c->mutable_error_per_hour()->set_seconds(s_.Below(120));
        c->mutable_black_used()->set_seconds(s_.Below(200));
        c->mutable_white_used()->set_seconds(s_.Below(200));
        break;
      }
      case 30:
        e.mutable_adjourned();
        break;
      case 31:
        e.mutable_resumed();
        break;
      case 32:
        if (s_.Below(4) == 0) {
          e.mutable_resign()->set_color(Color());
        } else {
          e.mutable_pass()->set_color(Color());
        }
        break;
      case 33:
        for (int i = s_.Below(4); i > 0; --i) e.mutable_dead_stones()->add_points(Point());
        if (!e.has_dead_stones()) e.mutable_dead_stones();
        break;
      case 34:
      case 35:
        Decision(e.mutable_arbiter_decision());
        break;
      case 36:
        e.mutable_wrong_colors();
        break;
      case 37:
        e.mutable_player_arrived()->set_color(Color());
        break;
      case 38:
        e.mutable_game_started();
        if (s_.Below(3) == 0) e.mutable_game_started()->add_absent(Color());
        break;
      case 40:
        e.mutable_move_sealed()->set_color(Color());
        break;
      case 41:
        e.mutable_sealed_move_opened()->set_color(Color());
        e.mutable_sealed_move_opened()->set_point(Point());
        break;
      case 42:
        e.mutable_stone_dropped()->set_color(Color());
        e.mutable_stone_dropped()->set_point(Point());
        e.mutable_stone_dropped()->set_consented(s_.Below(2) == 0);
        break;
      case 43:
        e.mutable_first_half_unrecorded();
        break;
      case 44:
        e.mutable_contest_abandoned()->set_color(Color());
        break;
      case 45:
        e.mutable_time_wasting()->set_color(Color());
        break;
      case 46:
        e.mutable_withdrew()->set_color(Color());
        break;
      default:
        if (s_.Below(2) == 0) {
          e.mutable_appeal_lodged()->set_ruling(s_.Below(4));
          e.mutable_appeal_lodged()->set_by_color(Color());
        } else {
          e.mutable_appeal_decided()->set_ruling(s_.Below(4));
          e.mutable_appeal_decided()->set_upheld(s_.Below(2) == 0);
        }
        break;
    }
  }

  Script s_;
  CheckedFold fold_;
  int size_ = 9;
  absl::Time now_ = absl::FromUnixSeconds(1'780'000'000);
};

}  // namespace

void Fold(const uint8_t* data, size_t size) { Driver(data, size).Run(); }

}  // namespace arbiter::fuzz
