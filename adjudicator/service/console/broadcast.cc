#include "adjudicator/service/console/broadcast.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/console/live_feed.h"
#include "google/protobuf/struct.pb.h"
#include "ledger/stream.h"

namespace arbiter::service::console {
namespace {

// Entries read from the ledger at once.
constexpr size_t kReadBatch = 256;

void Signal(int eventfd) {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(eventfd, &one, sizeof one);
}

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

Value Number(double v) {
  Value out;
  out.set_number_value(v);
  return out;
}

Value Text(const std::string& v) {
  Value out;
  out.set_string_value(v);
  return out;
}

// A clock in JGOF's fields (ms): main time left, byo-yomi periods left (for
// 定时限步制, the moves still owed), and the current period's time left.
Value JgofClock(const v1::Clock& c) {
  Value out;
  Struct& s = *out.mutable_struct_value();
  const bool moves = c.moves_remaining() > 0;
  (*s.mutable_fields())["main_time"] =
      Number(absl::ToDoubleMilliseconds(FromProto(c.main_remaining())));
  (*s.mutable_fields())["periods_left"] =
      Number(moves ? c.moves_remaining() : c.periods_remaining());
  (*s.mutable_fields())["period_time_left"] = Number(absl::ToDoubleMilliseconds(
      FromProto(c.has_period_remaining() ? c.period_remaining() : c.period_time())));
  (*s.mutable_fields())["running"].set_bool_value(c.running());
  return out;
}

Value PlayerValue(const v1::Player& p) {
  Value out;
  (*out.mutable_struct_value()->mutable_fields())["name"] = Text(p.name());
  (*out.mutable_struct_value()->mutable_fields())["rank"] = Text(p.rank());
  return out;
}

// The clocks (JGOF) when the game has a time control, and its result.
void AddClocksAndResult(const PublicGame& game, google::protobuf::Map<std::string, Value>& f) {
  if (game.created.has_time_control()) {
    Value& clocks = f["clocks"];
    (*clocks.mutable_struct_value()->mutable_fields())["black"] =
        JgofClock(game.state.clocks().black());
    (*clocks.mutable_struct_value()->mutable_fields())["white"] =
        JgofClock(game.state.clocks().white());
  }
  if (game.result.has_value()) {
    // The result as the contract's JSON names it (outcome, reason, sgf...).
    (void)FromJson(ToJson(*game.result), f["result"].mutable_struct_value());
  }
  if (Counting(game)) f["counting"].set_bool_value(true);
}

char StoneOf(v1::Color color) { return color == v1::BLACK ? 'X' : 'O'; }

// The points (GTP) a move of `color` at `point` (empty: a pass) captured,
// when the board went from `before` to `after` by that alone: the point
// was empty and holds the mover's stone, every other point that changed
// held the opponent's and is empty. FAILED_PRECONDITION otherwise.
absl::StatusOr<std::vector<std::string>> CapturedBy(v1::Color color, const std::string& point,
                                                    const v1::GameState& before,
                                                    const v1::GameState& after) {
  const int n = after.board_size();
  const absl::Status not_a_move = absl::FailedPreconditionError("not a move's change");
  if (n == 0 || before.board_size() != n || (color != v1::BLACK && color != v1::WHITE)) {
    return not_a_move;
  }
  int played = -1;
  if (!point.empty()) {
    absl::StatusOr<int> v = ParsePoint(point, n);
    if (!v.ok()) return not_a_move;
    played = *v;
  }
  const char own = StoneOf(color), theirs = own == 'X' ? 'O' : 'X';
  bool placed = false;
  std::vector<std::string> captured;
  for (int row = 0; row < n; ++row) {
    const std::string& was = before.board(row);
    const std::string& is = after.board(row);
    if (static_cast<int>(was.size()) != n || static_cast<int>(is.size()) != n) return not_a_move;
    for (int col = 0; col < n; ++col) {
      if (was[col] == is[col]) continue;
      // Rows are listed from the top (row n) down.
      const int vertex = VertexAt(col, n - row, n);
      if (vertex == played && was[col] == '.' && is[col] == own) {
        placed = true;
      } else if (was[col] == theirs && is[col] == '.') {
        captured.push_back(PointName(vertex, n));
      } else {
        return not_a_move;
      }
    }
  }
  if (placed != (played >= 0)) return not_a_move;
  return captured;
}

}  // namespace

absl::StatusOr<absl::Duration> ParseBroadcastDelay(absl::string_view text) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d < absl::ZeroDuration() || d > kMaxBroadcastDelay) {
    return absl::InvalidArgumentError(
        absl::StrCat("--broadcast-delay: a duration from 0s to 60m (such as 15m or 90s), not '",
                     text.substr(0, 32), "'"));
  }
  return d;
}

std::string PublicGameJson(const PublicGame& game) {
  Struct s;
  auto& f = *s.mutable_fields();
  f["game"] = Text(game.game_id);
  f["position"] = Number(static_cast<double>(game.position));
  f["black"] = PlayerValue(game.created.black());
  f["white"] = PlayerValue(game.created.white());
  f["moveNumber"] = Number(game.state.move_number());
  f["toMove"] = Text(v1::Color_Name(game.state.to_move()));
  Value& board = f["board"];
  for (const std::string& row : game.state.board()) {
    *board.mutable_list_value()->add_values() = Text(row);
  }
  AddClocksAndResult(game, f);
  Value& penalty = f["penaltyStones"];
  (*penalty.mutable_struct_value()->mutable_fields())["black"] =
      Number(game.state.penalty_stones().black());
  (*penalty.mutable_struct_value()->mutable_fields())["white"] =
      Number(game.state.penalty_stones().white());
  if (game.cancelled) f["cancelled"].set_bool_value(true);
  return ToJson(s);
}

std::optional<std::string> MoveEventJson(const v1::Event& event, const PublicGame& before,
                                         const PublicGame& after) {
  v1::Color color;
  std::string point;  // empty: a pass
  if (event.has_move()) {
    color = event.move().color();
    point = event.move().point();
  } else if (event.has_sealed_move_opened()) {
    color = event.sealed_move_opened().color();
    point = event.sealed_move_opened().point();
  } else if (event.has_pass()) {
    color = event.pass().color();
  } else {
    return std::nullopt;
  }
  absl::StatusOr<std::vector<std::string>> captured =
      CapturedBy(color, point, before.state, after.state);
  if (!captured.ok() || before.result.has_value() || before.cancelled || after.cancelled ||
      before.state.penalty_stones().black() != after.state.penalty_stones().black() ||
      before.state.penalty_stones().white() != after.state.penalty_stones().white()) {
    return std::nullopt;
  }
  Struct s;
  auto& f = *s.mutable_fields();
  f["game"] = Text(after.game_id);
  f["position"] = Number(static_cast<double>(after.position));
  f["moveNumber"] = Number(after.state.move_number());
  f["toMove"] = Text(v1::Color_Name(after.state.to_move()));
  f["color"] = Text(v1::Color_Name(color));
  if (point.empty()) {
    f["pass"].set_bool_value(true);
  } else {
    f["point"] =
        Text(PointName(*ParsePoint(point, after.state.board_size()), after.state.board_size()));
  }
  ListValue& taken = *f["captured"].mutable_list_value();
  for (const std::string& p : *captured) *taken.add_values() = Text(p);
  AddClocksAndResult(after, f);
  return ToJson(s);
}

Broadcast::Broadcast(ledger::Ledger* ledger, Options options)
    : ledger_(ledger),
      options_(std::move(options)),
      origin_(ledger->identity().origin()),
      wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

absl::StatusOr<std::unique_ptr<Broadcast>> Broadcast::Open(ledger::Ledger* ledger,
                                                           Options options) {
  std::unique_ptr<Broadcast> b(new Broadcast(ledger, std::move(options)));
  absl::StatusOr<uint64_t> head = ledger->log().Head();
  if (!head.ok()) return head.status();
  {
    absl::MutexLock lock(&b->mu_);
    // History before the window is folded, not kept as events.
    b->floor_ = *head > kWindow ? *head - kWindow : 0;
  }
  Broadcast* self = b.get();
  LoopHost* host = b->options_.host;
  if (host != nullptr) {
    b->epoll_ = epoll_create1(EPOLL_CLOEXEC);
    b->commits_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    b->timer_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    for (int fd : {b->commits_, b->timer_}) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.fd = fd;
      epoll_ctl(b->epoll_, EPOLL_CTL_ADD, fd, &ev);
    }
    // Listening before the first Advance: a commit meanwhile is not missed.
    b->listener_ = ledger->commit_feed()->AddListener([self](uint64_t) { Signal(self->commits_); });
  }
  absl::StatusOr<absl::Time> due = b->Advance();
  if (!due.ok()) return due.status();
  if (host != nullptr) {
    b->ArmTimer(*due);
    host->Host(b->epoll_, [self] { self->HostedTurn(); });
  }
  return b;
}

Broadcast::~Broadcast() {
  Stop();
  for (int fd : {wake_, epoll_, commits_, timer_}) {
    if (fd >= 0) close(fd);
  }
}

void Broadcast::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  Wake();
  // Once it returns no turn is taken any more.
  if (epoll_ >= 0 && options_.host != nullptr) options_.host->Unhost(epoll_);
  if (listener_ >= 0) {
    ledger_->commit_feed()->RemoveListener(listener_);
    listener_ = -1;
  }
}

void Broadcast::Wake() { Signal(wake_); }

void Broadcast::HostedTurn() {
  for (int fd : {commits_, timer_}) {
    uint64_t count;
    [[maybe_unused]] const ssize_t n = read(fd, &count, sizeof count);
  }
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) return;
  }
  absl::StatusOr<absl::Time> next = Advance();
  // A read error (the database away a moment): tried again within a second.
  ArmTimer(next.ok() ? *next : options_.now() + absl::Seconds(1));
}

void Broadcast::ArmTimer(absl::Time due) {
  itimerspec spec{};  // all zero: disarmed, nothing is held
  if (due != absl::InfiniteFuture()) {
    // On the monotonic clock, from now: the due time is on options_.now's.
    spec.it_value = absl::ToTimespec(std::max(due - options_.now(), absl::Nanoseconds(1)));
  }
  timerfd_settime(timer_, 0, &spec, nullptr);
}

absl::StatusOr<absl::Time> Broadcast::Advance() {
  absl::MutexLock serial(&advance_mu_);
  // The entry held last time holds back every later one until it is due:
  // a commit meanwhile changes nothing, and the log is not read for it.
  if (options_.now() < held_until_) return held_until_;
  for (;;) {
    uint64_t from;
    {
      absl::MutexLock lock(&mu_);
      from = released_;
    }
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ledger_->log().ReadLog(from, kReadBatch);
    if (!entries.ok()) return entries.status();
    if (entries->empty()) return absl::InfiniteFuture();
    // Read after the entries: an entry's arrival is written in its own
    // transaction, so every entry read has its arrival here (or none ever).
    absl::StatusOr<std::vector<ledger::Arrival>> arrivals =
        ledger_->log().Arrivals(from, entries->size());
    if (!arrivals.ok()) return arrivals.status();
    absl::flat_hash_map<uint64_t, absl::Time> arrived;
    for (const ledger::Arrival& a : *arrivals) arrived[a.position] = a.received_at;
    const absl::Time now = options_.now();
    bool released = false;
    absl::MutexLock lock(&mu_);
    for (const v1::LedgerEntry& e : *entries) {
      auto it = arrived.find(e.position());
      if (it != arrived.end() && it->second + options_.delay > now) {
        if (released) Wake();
        held_until_ = it->second + options_.delay;
        return held_until_;
      }
      if (absl::Status s = Release(e); !s.ok()) return s;
      released = true;
    }
    if (released) Wake();
  }
}

absl::Status Broadcast::Release(const v1::LedgerEntry& entry) {
  released_ = entry.position();
  if (ledger::IsTournamentStream(entry.game_id())) return absl::OkStatus();
  Folded& game = games_[entry.game_id()];
  if (game.broken) return absl::OkStatus();
  v1::Event event;
  if (!event.ParseFromString(entry.event())) {
    game.broken = true;
    return absl::OkStatus();
  }
  if (game.fold == nullptr) {
    if (!event.has_game_created()) {
      game.broken = true;
      return absl::OkStatus();
    }
    absl::StatusOr<std::string> pin = ledger_->log().RulesPin(entry.game_id());
    if (!pin.ok()) return pin.status();
    absl::StatusOr<std::unique_ptr<ledger::GameJudge>> fold =
        judge_.Reopen(entry.game_id(), event.game_created(), *pin);
    if (!fold.ok()) {
      game.broken = true;
      return absl::OkStatus();
    }
    game.pin = *std::move(pin);
    game.fold = *std::move(fold);
  }
  // History before the window is folded only: no event, no public view.
  const bool kept = entry.position() > floor_;
  if (kept && game.shown.position != game.position) game.shown = PublicOf(entry.game_id(), game);
  if (!game.fold->Apply(event).ok()) {
    game.broken = true;  // the ledger took it: `arbiter verify` says why it no longer folds
    return absl::OkStatus();
  }
  game.position = entry.position();
  if (kept) {
    PublicGame shown = PublicOf(entry.game_id(), game);
    // A move goes as its stone and captures; anything else as the whole board.
    if (std::optional<std::string> move = MoveEventJson(event, game.shown, shown)) {
      Keep(entry.position(), "move", *move);
    } else {
      Keep(entry.position(), "board", PublicGameJson(shown));
    }
    game.shown = std::move(shown);
  }
  game.events.push_back(std::move(event));
  return absl::OkStatus();
}

void Broadcast::Keep(uint64_t position, absl::string_view kind, const std::string& data) {
  // Formatted once here; every viewer is sent these same bytes.
  events_.emplace_back(position, absl::StrCat("id: ", EventId(position), "\nevent: ", kind,
                                              "\ndata: ", data, "\n\n"));
  if (events_.size() > kWindow) {
    floor_ = events_.front().first;
    events_.pop_front();
  }
}

FeedBatch Broadcast::Snapshot() {
  FeedBatch batch;
  batch.next = released_;
  std::vector<std::pair<uint64_t, Folded*>> shown;
  for (auto& [id, game] : games_) {
    if (game.fold == nullptr) continue;
    if (game.shown.position != game.position) game.shown = PublicOf(id, game);
    if (game.snapshot_at != game.position || game.snapshot.empty()) {
      // Each game's board is formatted once per position it reaches, and
      // only when a viewer connects.
      game.snapshot = absl::StrCat("event: board\ndata: ", PublicGameJson(game.shown), "\n\n");
      game.snapshot_at = game.position;
    }
    shown.emplace_back(game.position, &game);
  }
  // In position order, the last carrying the id the viewer resumes from:
  // every event after it is after what the snapshot shows.
  std::sort(shown.begin(), shown.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t k = 0; k < shown.size(); ++k) {
    if (k + 1 == shown.size()) absl::StrAppend(&batch.text, "id: ", EventId(released_), "\n");
    absl::StrAppend(&batch.text, shown[k].second->snapshot);
  }
  return batch;
}

PublicGame Broadcast::PublicOf(const std::string& game_id, const Folded& game) const {
  PublicGame out;
  out.game_id = game_id;
  out.position = game.position;
  const Adjudicator& a = static_cast<const AdjudicatorFold&>(*game.fold).adjudicator();
  out.created = a.game();
  out.state = a.State();
  // Incidents appear only as their public outcome: penalty stones and the
  // result stay, warnings and pending rulings (an arbiter's business) go.
  out.state.clear_warnings();
  out.state.clear_pending_rulings();
  out.state.clear_cancelled_reason();
  out.cancelled = a.cancelled();
  if (const v1::Result* r = a.result(); r != nullptr) {
    v1::Result& pub = out.result.emplace();
    pub.set_outcome(r->outcome());
    pub.set_reason(r->reason());
    if (r->has_black_count()) pub.set_black_count(r->black_count());
    if (r->has_margin_stones()) pub.set_margin_stones(r->margin_stones());
    *pub.mutable_penalty_stones() = r->penalty_stones();
    pub.set_sgf(r->sgf());
    *pub.mutable_at() = r->at();
  }
  return out;
}

uint64_t Broadcast::released() {
  absl::MutexLock lock(&mu_);
  return released_;
}

absl::StatusOr<PublicGame> Broadcast::Game(const std::string& game_id, bool with_sgf) {
  std::vector<v1::Event> events;
  std::string pin;
  PublicGame out;
  {
    absl::MutexLock lock(&mu_);
    auto it = games_.find(game_id);
    if (it == games_.end() || it->second.fold == nullptr) {
      return absl::NotFoundError(absl::StrCat("no game '", game_id, "' on the broadcast"));
    }
    out = PublicOf(game_id, it->second);
    if (!with_sgf) return out;
    events = it->second.events;
    pin = it->second.pin;
  }
  absl::StatusOr<Rules> rules = RulesOf(events.front().game_created(), pin);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<std::string> sgf = ExportPublicSgf(*std::move(rules), events);
  if (!sgf.ok()) return sgf.status();
  out.sgf = *std::move(sgf);
  return out;
}

std::string Broadcast::EventId(uint64_t position) const {
  return absl::StrCat(origin_, "/", position);
}

absl::StatusOr<uint64_t> Broadcast::ParseEventId(absl::string_view id) const {
  const size_t slash = id.rfind('/');
  uint64_t position = 0;
  if (slash == absl::string_view::npos || !absl::SimpleAtoi(id.substr(slash + 1), &position)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Last-Event-ID: '", id.substr(0, 200), "' is not ORIGIN/POSITION (an id of this stream)"));
  }
  if (id.substr(0, slash) != origin_) {
    return absl::InvalidArgumentError(absl::StrCat("Last-Event-ID: '", id.substr(0, 200),
                                                   "' is of another log; this broadcast is of '",
                                                   origin_, "': reload the page"));
  }
  return position;
}

FeedBatch Broadcast::Next(uint64_t after, size_t max_bytes) {
  absl::MutexLock lock(&mu_);
  FeedBatch batch;
  batch.closed = stopping_;
  batch.next = after;
  if (batch.closed) return batch;
  if (after == kSnapshot) return Snapshot();
  if (after >= released_) return batch;
  if (after < floor_) {
    // Fell behind what is kept: the viewer reads the pages again.
    batch.text = absl::StrCat("id: ", EventId(released_), "\nevent: reload\ndata: {}\n\n");
    batch.next = released_;
    return batch;
  }
  auto it = std::upper_bound(events_.begin(), events_.end(), after,
                             [](uint64_t p, const auto& e) { return p < e.first; });
  for (; it != events_.end(); ++it) {
    absl::StrAppend(&batch.text, it->second);
    batch.next = it->first;
    if (batch.text.size() >= max_bytes) break;
  }
  // Entries that gave no event (a tournament's) are passed over too.
  if (it == events_.end()) batch.next = released_;
  batch.more = it != events_.end() && std::next(it) != events_.end();
  return batch;
}

}  // namespace arbiter::service::console
