// The handlers of the event kinds (DOMAIN.md §3). Each checks first, then
// changes state: a handler that returns an error has changed nothing.
#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/adjudicator.h"
#include "adjudicator/area_count.h"
#include "adjudicator/game_result.h"
#include "adjudicator/point.h"
#include "adjudicator/proto_time.h"
#include "adjudicator/ruling_text.h"

namespace arbiter {
namespace {

absl::StatusOr<int> Point(std::string_view gtp, int size, absl::string_view what) {
  absl::StatusOr<int> v = ParsePoint(gtp, size);
  if (!v.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", v.status().message()));
  }
  return v;
}

absl::Status CheckDuration(const google::protobuf::Duration& d, absl::string_view what) {
  if (d.seconds() < 0 || d.nanos() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must not be negative"));
  }
  return absl::OkStatus();
}

std::optional<absl::Duration> LateLimit(const v1::Parameters& p, v1::GameCreated::Venue venue) {
  // RAPID (22.4) and an unknown venue have no limit: the absent player's
  // clock simply runs.
  if (venue == v1::GameCreated::SAME_SITE && p.has_late_limit_same_site()) {
    return FromProto(p.late_limit_same_site());
  }
  if (venue == v1::GameCreated::SEPARATE_SITE && p.has_late_limit_separate_site()) {
    return FromProto(p.late_limit_separate_site());
  }
  return std::nullopt;
}

}  // namespace

absl::Status Adjudicator::OnGameCreated(const v1::GameCreated& g) {
  if (created_) return absl::FailedPreconditionError("the game was already created");
  const int size = g.board_size() == 0 ? 19 : g.board_size();
  if (!IsSupportedBoardSize(size)) {
    return absl::InvalidArgumentError(
        absl::StrCat("boardSize ", g.board_size(), " is not 9, 13 or 19"));
  }
  int komi_quarters = rules_.params().komi_quarters();
  if (g.has_komi_stones()) {
    const double q = g.komi_stones() * 4;
    if (!std::isfinite(q) || q != std::round(q) || std::abs(q) > 4 * size * size) {
      return absl::InvalidArgumentError(
          absl::StrCat("komiStones ", g.komi_stones(), " is not a whole number of quarter stones"));
    }
    komi_quarters = static_cast<int>(q);
  }
  for (const auto* d : {&g.time_control().main_time(), &g.time_control().byo_yomi().period_time(),
                        &g.time_control().moves_in_time().period()}) {
    if (absl::Status s = CheckDuration(*d, "a timeControl duration"); !s.ok()) return s;
  }
  if (g.time_control().byo_yomi().periods() < 0 || g.time_control().moves_in_time().moves() < 0) {
    return absl::InvalidArgumentError("timeControl counts must not be negative");
  }
  const v1::Color first =
      g.setup().first_to_move() == v1::COLOR_UNSPECIFIED ? v1::BLACK : g.setup().first_to_move();
  Board board(size);
  std::vector<BoardOp> log;
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    const auto& points = c == v1::BLACK ? g.setup().black() : g.setup().white();
    for (const std::string& p : points) {
      absl::StatusOr<int> v = Point(p, size, "setup");
      if (!v.ok()) return v.status();
      if (board.at(*v) != Stone::kEmpty) {
        return absl::InvalidArgumentError(absl::StrCat("setup: ", p, " is set up twice"));
      }
      board.Place(c, *v);
      log.push_back({BoardOp::kPlace, c, *v});
    }
  }
  board.RecordSituation(first);
  log.push_back({BoardOp::kRecord, first, 0});

  created_ = true;
  game_ = g;
  board_.emplace(std::move(board));
  board_log_ = std::move(log);
  komi_quarters_ = komi_quarters;
  to_move_ = first;
  clock_owner_ = first;
  if (g.has_time_control()) {
    const bool exact = rules_.params().byo_yomi_exact_period_counts();
    clocks_[0] = PlayerClock(g.time_control(), exact);
    clocks_[1] = PlayerClock(g.time_control(), exact);
  }
  lateness_ = Lateness(LateLimit(rules_.params(), g.venue()));
  return absl::OkStatus();
}

absl::Status Adjudicator::OnGameStarted(const v1::GameStarted& g) {
  if (started_) return absl::FailedPreconditionError("the game has already started");
  bool absent[2] = {false, false};
  for (const int c : g.absent()) {
    if (absl::Status s = CheckColor(static_cast<v1::Color>(c), "gameStarted.absent"); !s.ok()) {
      return s;
    }
    absent[Index(static_cast<v1::Color>(c))] = true;
  }
  EnsureStarted();
  const absl::Time scheduled =
      game_.has_scheduled_start() ? FromProto(game_.scheduled_start()) : at_;
  lateness_.Start(scheduled, absent[0], absent[1]);
  SettleTime(true);
  return absl::OkStatus();
}

void Adjudicator::Arrive(v1::Color c) {
  const std::optional<Lateness::Arrival> arrival = lateness_.Arrive(c, at_);
  // RAPID (22.4): no forfeit and no deduction; the clock simply ran.
  if (!arrival || game_.venue() == v1::GameCreated::RAPID) return;
  const int index = Rule(v1::LATE_WITHIN_LIMIT, c);
  if (!Imposed(index, v1::TIME_DEDUCTED) || result_.has_value()) return;
  // The late player's used time becomes multiplier × lateness, whatever
  // their clock ran while they were away (22.1-22.2; 1988 23.3).
  const absl::Duration deducted = rules_.params().late_deduction_multiplier() * arrival->late;
  ToProto(deducted, rulings_[index].mutable_time_deducted());
  // A mover who has not pressed is taken to have pressed at their move: the
  // late player's clock has been running since.
  if (clocks_running_ && awaiting_press_ && clock_owner_ != c) PressClock(move_at_);
  if (clocks_running_ && !awaiting_press_ && clock_owner_ == c) {
    turn_start_ = at_;
    turn_carry_ = absl::ZeroDuration();
  }
  PlayerClock& clock = clocks_[Index(c)];
  clock.Deduct(deducted);
  if (clock.flagged()) FlagFalls(c, at_);
}

absl::Status Adjudicator::OnPlayerArrived(const v1::PlayerArrived& p) {
  if (absl::Status s = CheckColor(p.color(), "playerArrived.color"); !s.ok()) return s;
  SettleTime(true);
  if (!result_.has_value()) Arrive(p.color());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnMove(const v1::Move& m) {
  const v1::Color c = m.color();
  if (absl::Status s = CheckColor(c, "move.color"); !s.ok()) return s;
  absl::StatusOr<int> v = Point(m.point(), board_->size(), "move.point");
  if (!v.ok()) return v.status();
  if (board_->at(*v) != Stone::kEmpty) {
    return absl::InvalidArgumentError(absl::StrCat("move.point: ", m.point(), " is occupied"));
  }

  EnsureStarted();
  if (consecutive_passes_ >= 2 && !clocks_running_ && !adjourned_) {
    // Play resumes after two passes (the players did not agree it ended).
    clocks_running_ = true;
    clock_owner_ = to_move_;
    turn_start_ = at_;
    awaiting_press_ = false;
    consecutive_passes_ = 0;
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (lateness_.absent(c)) Arrive(c);
  lateness_.Seen(c);
  if (result_.has_value()) return absl::OkStatus();
  // The opponent's move: a mover who did not press is taken to have pressed
  // at their move.
  if (awaiting_press_ && c != clock_owner_) PressClock(move_at_);
  if (c != to_move_) {
    Rule(v1::DOUBLE_MOVE, c);  // the stone is not played in any case
    return absl::OkStatus();
  }
  int index = -1;
  switch (board_->Check(c, *v)) {
    case Legality::kLegal:
      board_->Play(c, *v);
      board_log_.push_back({BoardOp::kPlay, c, *v});
      ++move_number_;
      consecutive_passes_ = 0;
      to_move_ = Opponent(c);
      awaiting_press_ = true;
      move_at_ = at_;
      return absl::OkStatus();
    case Legality::kOccupied:  // refused above
      return absl::OkStatus();
    case Legality::kSuicide:
      index = Rule(v1::SUICIDE, c);
      break;
    case Legality::kKoRecapture:
      index = Rule(v1::KO_RECAPTURE, c);
      break;
    case Legality::kRepetition:
      index = Rule(v1::OTHER_REPETITION, c, std::nullopt, &rules_.params().repetition_preset());
      break;
  }
  // An illegal move is never played; it may count as a pass.
  if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) PlayPass(c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnPass(const v1::Pass& p) {
  const v1::Color c = p.color();
  if (absl::Status s = CheckColor(c, "pass.color"); !s.ok()) return s;
  EnsureStarted();
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (lateness_.absent(c)) Arrive(c);
  lateness_.Seen(c);
  if (result_.has_value()) return absl::OkStatus();
  // After two passes play has ended: a further pass changes nothing.
  if (consecutive_passes_ >= 2) return absl::OkStatus();
  if (awaiting_press_ && c != clock_owner_) PressClock(move_at_);
  if (c != to_move_) {
    Rule(v1::DOUBLE_MOVE, c);  // a pass is a move (虚着): out of turn it is a second move
    return absl::OkStatus();
  }
  PlayPass(c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnClockPress(const v1::ClockPress& p) {
  const v1::Color c = p.color();
  if (absl::Status s = CheckColor(c, "clockPress.color"); !s.ok()) return s;
  SettleTime(true);
  if (result_.has_value() || !clocks_running_) return absl::OkStatus();
  lateness_.Seen(c);
  // The opponent pressing: the mover is taken to have pressed at the move,
  // so this press is the opponent's own, in a turn with no stone placed yet.
  if (awaiting_press_ && c != clock_owner_) PressClock(move_at_);
  if (c != clock_owner_) return absl::OkStatus();  // the button of a stopped clock
  if (!awaiting_press_) {
    // No stone placed since the turn began (17.4): the clock stays with `c`
    // whatever the clause imposes, since the turn cannot pass without a move.
    Rule(v1::EARLY_CLOCK_PRESS, c);
    return absl::OkStatus();
  }
  if (p.captures_not_cleared()) {
    const int index = Rule(v1::CAPTURES_NOT_CLEARED, c);
    if (Imposed(index, v1::CLOCK_UNCHANGED) || result_.has_value()) return absl::OkStatus();
  }
  PressClock(at_);
  return absl::OkStatus();
}

void Adjudicator::RebuildBoard() {
  board_.emplace(board_->size());
  for (const BoardOp& op : board_log_) {
    switch (op.kind) {
      case BoardOp::kPlace:
        board_->Place(op.color, op.vertex);
        break;
      case BoardOp::kRemove:
        board_->Remove(op.vertex);
        break;
      case BoardOp::kRecord:
        board_->RecordSituation(op.color);
        break;
      case BoardOp::kPlay:
        board_->Play(op.color, op.vertex);
        break;
      case BoardOp::kPass:
        board_->Pass(op.color);
        break;
    }
  }
}

absl::Status Adjudicator::OnTakeback(const v1::Takeback& t) {
  const v1::Color c = t.color();
  if (absl::Status s = CheckColor(t.color(), "takeback.color"); !s.ok()) return s;
  if (board_log_.empty() || board_log_.back().kind != BoardOp::kPlay ||
      board_log_.back().color != c) {
    return absl::FailedPreconditionError(
        absl::StrCat("takeback: the last move on the board is not ", v1::Color_Name(c), "'s"));
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  const int index = Rule(v1::TAKEBACK, c);
  if (!Imposed(index, v1::STONE_RESTORED) || result_.has_value()) return absl::OkStatus();
  // The stone comes off and it is `c`'s turn again. If `c` had already
  // pressed, the opponent's clock stops and `c`'s turn starts now.
  board_log_.pop_back();
  RebuildBoard();
  --move_number_;
  to_move_ = c;
  consecutive_passes_ = 0;
  for (auto it = board_log_.rbegin(); it != board_log_.rend() && it->kind == BoardOp::kPass;
       ++it) {
    ++consecutive_passes_;
  }
  if (awaiting_press_) {
    awaiting_press_ = false;
  } else if (clocks_running_) {
    clock_owner_ = c;
    turn_start_ = at_;
    turn_carry_ = absl::ZeroDuration();
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnCaptureError(const v1::CaptureError& e) {
  if (absl::Status s = CheckColor(e.color(), "captureError.color"); !s.ok()) return s;
  if (e.kind() != v1::CaptureError::REMOVED_LIVE && e.kind() != v1::CaptureError::NOT_REMOVED) {
    return absl::InvalidArgumentError("captureError.kind must be REMOVED_LIVE or NOT_REMOVED");
  }
  for (const std::string& p : e.points()) {
    if (absl::StatusOr<int> v = Point(p, board_->size(), "captureError.points"); !v.ok()) {
      return v.status();
    }
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // The board here is the rules' board: the wrongly taken stones are still
  // on it and the dead ones already off, so the physical repair
  // (STONE_RESTORED, STONES_REMOVED) changes nothing in it.
  Rule(e.kind() == v1::CaptureError::REMOVED_LIVE ? v1::CAPTURE_REMOVED_LIVE
                                                  : v1::CAPTURE_NOT_REMOVED,
       e.color());
  return absl::OkStatus();
}

bool Adjudicator::CanDisplace(const std::vector<std::pair<int, int>>& moves) const {
  std::set<int> from_seen;
  std::set<int> to_seen;
  for (const auto& [from, to] : moves) {
    if (board_->at(from) == Stone::kEmpty || !from_seen.insert(from).second) return false;
  }
  for (const auto& [from, to] : moves) {
    if (to < 0) continue;
    if (!to_seen.insert(to).second) return false;
    if (board_->at(to) != Stone::kEmpty && from_seen.count(to) == 0) return false;
  }
  return true;
}

void Adjudicator::Displace(const std::vector<std::pair<int, int>>& moves) {
  std::vector<std::pair<int, Stone>> placed;
  for (const auto& [from, to] : moves) placed.emplace_back(to, board_->at(from));
  for (const auto& [from, to] : moves) {
    board_->Remove(from);
    board_log_.push_back({BoardOp::kRemove, v1::COLOR_UNSPECIFIED, from});
  }
  for (const auto& [to, stone] : placed) {
    if (to < 0) continue;
    const v1::Color c = stone == Stone::kWhite ? v1::WHITE : v1::BLACK;
    board_->Place(c, to);
    board_log_.push_back({BoardOp::kPlace, c, to});
  }
}

absl::Status Adjudicator::OnStonesDisplaced(const v1::StonesDisplaced& d) {
  const bool by_someone = d.by_color() != v1::COLOR_UNSPECIFIED;
  if (by_someone) {
    if (absl::Status s = CheckColor(d.by_color(), "stonesDisplaced.byColor"); !s.ok()) return s;
  }
  if (d.deliberate() && !by_someone) {
    return absl::InvalidArgumentError("stonesDisplaced: deliberate needs byColor");
  }
  if (d.points_size() == 0) return absl::InvalidArgumentError("stonesDisplaced: no points");
  std::vector<std::pair<int, int>> moves;  // from, to (-1: off the board)
  for (const v1::Displacement& p : d.points()) {
    absl::StatusOr<int> from = Point(p.from(), board_->size(), "stonesDisplaced.from");
    if (!from.ok()) return from.status();
    if (board_->at(*from) == Stone::kEmpty) {
      return absl::InvalidArgumentError(absl::StrCat("stonesDisplaced: no stone at ", p.from()));
    }
    int to = -1;
    if (!p.to().empty()) {
      absl::StatusOr<int> t = Point(p.to(), board_->size(), "stonesDisplaced.to");
      if (!t.ok()) return t.status();
      to = *t;
    }
    moves.emplace_back(*from, to);
  }
  if (!CanDisplace(moves)) {
    return absl::InvalidArgumentError(
        "stonesDisplaced: the stones cannot all move where stated (a point is occupied or named "
        "twice)");
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  if (d.deliberate()) {
    Rule(v1::STONES_DISPLACED_DELIBERATE, d.by_color());
  } else if (d.agreement() == v1::StonesDisplaced::STANDS) {
    Displace(moves);  // both players agree the moved stones stay (17.5)
  } else if (d.agreement() != v1::StonesDisplaced::RESTORE) {
    // No agreement: the chief arbiter rules. RESTORE changes nothing: the
    // stones go back where the rules' board already has them.
    const int index = Rule(v1::STONES_DISPLACED_DISPUTED, d.by_color());
    if (index >= 0 && rulings_[index].pending()) pending_.back().displaced = std::move(moves);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnBoardScattered(const v1::BoardScattered& b) {
  const v1::BoardScattered::Cause cause = b.cause();
  if (cause != v1::BoardScattered::EXTERNAL && cause != v1::BoardScattered::PLAYER_ACCIDENT &&
      cause != v1::BoardScattered::PLAYER_DELIBERATE) {
    return absl::InvalidArgumentError(
        "boardScattered.cause must be EXTERNAL, PLAYER_ACCIDENT or PLAYER_DELIBERATE");
  }
  if (cause != v1::BoardScattered::EXTERNAL) {
    if (absl::Status s = CheckColor(b.by_color(), "boardScattered.byColor"); !s.ok()) return s;
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  if (cause == v1::BoardScattered::PLAYER_DELIBERATE) {
    Rule(v1::BOARD_SCATTERED_DELIBERATE, b.by_color());
  } else if (!b.reconstructed()) {
    // A position put back together goes on; one that cannot be is ruled.
    Rule(cause == v1::BoardScattered::EXTERNAL ? v1::BOARD_SCATTERED_DISPUTED
                                               : v1::BOARD_SCATTERED_BY_PLAYER,
         cause == v1::BoardScattered::EXTERNAL ? v1::COLOR_UNSPECIFIED : b.by_color());
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnOffence(v1::Color c, v1::Incident incident) {
  if (absl::Status s = CheckColor(c, absl::StrCat(v1::Incident_Name(incident), " color"));
      !s.ok()) {
    return s;
  }
  SettleTime(true);
  if (!result_.has_value()) Rule(incident, c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnMisconduct(const v1::Misconduct& m) {
  if (absl::Status s = CheckColor(m.color(), "misconduct.color"); !s.ok()) return s;
  v1::Incident incident;
  switch (m.kind()) {
    case v1::Misconduct::DISTURBANCE:
      incident = v1::MISCONDUCT_DISTURBANCE;
      break;
    case v1::Misconduct::DISCUSSION:
      incident = v1::MISCONDUCT_DISCUSSION;
      break;
    case v1::Misconduct::TALK:
      incident = v1::MISCONDUCT_TALK;
      break;
    case v1::Misconduct::CHEATING:
      incident = v1::MISCONDUCT_CHEATING;
      break;
    default:
      return absl::InvalidArgumentError(
          "misconduct.kind must be DISTURBANCE, DISCUSSION, TALK or CHEATING");
  }
  const int occurrence = discipline_.Count(m.color(), incident) + 1;
  const v1::Sanctioning* s = rules_.Find(incident, occurrence, game_.venue());
  const v1::RulingOption* choice = nullptr;
  if (!m.decision().empty()) {
    if (s == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "misconduct.decision: ", rules_.id(), " has no clause for ", v1::Incident_Name(incident)));
    }
    choice = FindOption(*s, m.decision());
    if (choice == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("misconduct.decision: ", s->clause(),
                                                     " allows ", OptionList(*s), "; not ",
                                                     m.decision()));
    }
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  discipline_.Record(m.color(), incident);
  if (s != nullptr) RuleWith(*s, m.color(), at_, choice);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnLeftSeat(const v1::LeftSeat& l) {
  if (absl::Status s = CheckColor(l.color(), "leftSeat.color"); !s.ok()) return s;
  SettleTime(true);
  // 22.7: the clock runs as usual; leaving without permission may be ruled.
  if (!result_.has_value() && !l.permitted()) Rule(v1::LEFT_SEAT_UNPERMITTED, l.color());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnTimeExpired(const v1::TimeExpired& t) {
  const v1::Color c = t.color();
  if (absl::Status s = CheckColor(c, "timeExpired.color"); !s.ok()) return s;
  EnsureStarted();
  SettleTime(false);  // lateness may precede; the flag is this event's
  if (result_.has_value()) return absl::OkStatus();
  if (awaiting_press_ && c != clock_owner_) PressClock(move_at_);
  PlayerClock& clock = clocks_[Index(c)];
  // When our clock already shows the flag down, it fell at its own instant;
  // otherwise the report is the flag fall.
  absl::Time when = at_;
  PlayerClock now = clock;
  const bool runs = clocks_running_ && c == clock_owner_;
  if (runs) {
    const absl::Duration elapsed = TurnElapsed(at_);
    if (clock.Expired(elapsed)) when = turn_start_ + (clock.FlagOffset() - turn_carry_);
    now.ChargePartial(elapsed);
  }
  const bool last_period = clock.mode() == PlayerClock::Mode::kByoYomi &&
                           (now.flagged() || (now.in_overtime() && now.periods_remaining() <= 1));
  if (t.pass_requested() && last_period && rules_.params().pass_on_timeout() && c == to_move_ &&
      consecutive_passes_ < 2) {
    const int index = Rule(v1::TIME_EXPIRED_PASS_REQUESTED, c, when);
    if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) {
      // 22.5: the flag becomes a pass and the last period starts again.
      clock.RestartLastPeriod();
      if (runs) {
        turn_start_ = at_;
        turn_carry_ = absl::ZeroDuration();
      }
      PlayPass(c);
      if (clocks_running_) PressClock(at_);
    }
    return absl::OkStatus();
  }
  clock.Flag();
  if (runs) {
    turn_start_ = when;
    turn_carry_ = absl::ZeroDuration();
  }
  const bool overtime = clock.mode() == PlayerClock::Mode::kByoYomi ||
                        clock.mode() == PlayerClock::Mode::kMovesInTime;
  Rule(overtime ? v1::TIME_EXPIRED : v1::TIME_EXPIRED_NO_OVERTIME, c, when);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnClockMalfunction(const v1::ClockMalfunction& m) {
  for (const auto* d : {&m.error_per_hour(), &m.black_used(), &m.white_used()}) {
    if (absl::Status s = CheckDuration(*d, "clockMalfunction durations"); !s.ok()) return s;
  }
  const absl::Duration black_shown = FromProto(m.black_used());
  const absl::Duration white_shown = FromProto(m.white_used());
  const v1::Parameters& params = rules_.params();
  const bool prorate = params.has_clock_error_tolerance_per_hour() &&
                       FromProto(m.error_per_hour()) >= FromProto(params.clock_error_tolerance_per_hour());
  if (prorate && black_shown + white_shown <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("clockMalfunction: blackUsed and whiteUsed are both zero");
  }
  SettleTime(true);
  if (result_.has_value() || !prorate) return absl::OkStatus();
  const int index = Rule(v1::CLOCK_MALFUNCTION_PRORATED, v1::COLOR_UNSPECIFIED);
  if (index < 0 || rulings_[index].pending() || result_.has_value()) return absl::OkStatus();
  // 22.8: the time really used by both (known exactly from the events) is
  // shared in the proportion of the faulty clock's readings.
  if (awaiting_press_) PressClock(move_at_);
  const absl::Duration running = started_ ? TurnElapsed(at_) : absl::ZeroDuration();
  const absl::Duration total = clocks_[0].used() + clocks_[1].used() + running;
  const double black_share = absl::FDivDuration(black_shown, black_shown + white_shown);
  const absl::Duration target[2] = {absl::Trunc(total * black_share, absl::Milliseconds(1)),
                                    total - absl::Trunc(total * black_share, absl::Milliseconds(1))};
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    // The running turn stays on the clock; the rest is set to the share.
    const absl::Duration in_turn = started_ && clock_owner_ == c ? running : absl::ZeroDuration();
    const absl::Duration delta = target[Index(c)] - in_turn - clocks_[Index(c)].used();
    if (delta > absl::ZeroDuration()) clocks_[Index(c)].Deduct(delta);
    if (delta < absl::ZeroDuration()) clocks_[Index(c)].Credit(-delta);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnAdjourned() {
  if (adjourned_) return absl::FailedPreconditionError("the game is already adjourned");
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Clocks stop (art. 14); the turn in progress keeps what it has run.
  if (clocks_running_) {
    if (awaiting_press_) PressClock(move_at_);
    turn_carry_ = TurnElapsed(at_);
    clocks_running_ = false;
  }
  adjourned_ = true;
  return absl::OkStatus();
}

absl::Status Adjudicator::OnResumed() {
  if (!adjourned_) return absl::FailedPreconditionError("resumed: the game is not adjourned");
  adjourned_ = false;
  if (started_ && consecutive_passes_ < 2) {
    clocks_running_ = true;
    turn_start_ = at_;
  }
  lateness_.Resume(at_);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnResign(const v1::Resign& r) {
  if (absl::Status s = CheckColor(r.color(), "resign.color"); !s.ok()) return s;
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  EndGame(Loss(r.color(), v1::Result::RESIGNATION), at_, 0);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnDeadStones(const v1::DeadStones& d) {
  if (consecutive_passes_ < 2) {
    return absl::FailedPreconditionError("deadStones: play has not ended with two passes");
  }
  std::vector<int> dead;
  for (const std::string& p : d.points()) {
    absl::StatusOr<int> v = Point(p, board_->size(), "deadStones.points");
    if (!v.ok()) return v.status();
    dead.push_back(*v);
  }
  absl::StatusOr<AreaCount> count = CountArea(*board_, dead);
  if (!count.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("deadStones: ", count.status().message()));
  }
  const int pb = discipline_.penalty_stones(v1::BLACK);
  const int pw = discipline_.penalty_stones(v1::WHITE);
  const int size = board_->size();
  const int margin = MarginQuarters(*count, size * size, komi_quarters_, pb, pw);
  EndGame(CountResult(count->black_halves, margin, pb, pw), at_, 0);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnArbiterDecision(const v1::ArbiterDecision& d) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const Pending& p) { return p.number == d.ruling(); });
  if (it == pending_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("arbiterDecision: ruling ", d.ruling(), " is not pending"));
  }
  const v1::Sanctioning* s = it->sanctioning;
  const v1::RulingOption* choice = FindOption(*s, d.choice());
  if (choice == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("arbiterDecision: ", s->clause(), " allows ",
                                                   OptionList(*s), "; not ", d.choice()));
  }
  const Pending decided = *it;
  pending_.erase(it);
  SettleTime(true);
  v1::Ruling r = RulingUnder(rules_, *s, rulings_[decided.number - 1].against());
  r.set_pending(false);
  r.clear_options();
  r.mutable_sanctions()->CopyFrom(choice->sanctions());
  r.set_resolves(decided.number);
  r.set_choice(choice->id());
  r.set_note(d.note());
  ToProto(at_, r.mutable_at());
  const int index = Issue(std::move(r), decided.offender, s);
  // Disputed displaced stones stand unless the decision restores them or
  // ends the game; the board may since have changed so that they cannot.
  if (!decided.displaced.empty() && !Imposed(index, v1::STONE_RESTORED) && !result_.has_value() &&
      CanDisplace(decided.displaced)) {
    Displace(decided.displaced);
  }
  // A repetition ruled a void move counts as the offender's pass.
  if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value() &&
      decided.offender == to_move_ && consecutive_passes_ < 2) {
    PlayPass(decided.offender);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnWrongColors() {
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // 17.1: found within the correctable moves, the colours are put right;
  // later, the game goes on as it stands.
  Rule(move_number_ <= rules_.params().wrong_colors_correctable_moves()
           ? v1::WRONG_COLORS_CORRECTED
           : v1::WRONG_COLORS_STAND,
       v1::COLOR_UNSPECIFIED);
  return absl::OkStatus();
}

}  // namespace arbiter
