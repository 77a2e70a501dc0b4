#include "adjudicator/service/recorder.h"

#include <memory>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/notification.h"
#include "adjudicator/engine/new_input.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/admission.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/tournament/utf8.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {
namespace {

std::string NewGameId() {
  absl::BitGen gen;
  return absl::StrFormat("game-%016x", absl::Uniform<uint64_t>(gen));
}

// A player's name as CreateGame takes it (issue 29: a game is between two
// players): not blank, and without control characters (C0, DEL, C1), which
// no name holds and which the exports and the logs would carry. Tab, CR and
// LF included: a name is one line, and "Li Wei\nRESULT: W+R ..." printed a
// line of its own choosing under `arbiter show`'s players (an outside probe).
absl::Status CheckPlayerName(absl::string_view field, absl::string_view name) {
  if (const std::optional<tournament::ControlAt> c = tournament::FirstControl(name)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("game.%s.name: a name holds no control characters (U+%04X at byte %d)",
                        field, c->cp, c->at));
  }
  bool visible = false;
  for (size_t i = 0; i < name.size() && !visible;) {
    const std::optional<uint32_t> c = tournament::NextCodePoint(name, &i);
    if (!c.has_value()) break;  // not UTF-8: the request walk refused it before
    visible = !tournament::IsInvisible(*c);
  }
  if (!visible) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game.", field, ".name: a game needs both players; ", field, "'s name is missing"));
  }
  return absl::OkStatus();
}

// The batch's size, in events and in bytes. The acknowledgement echoes the
// batch with its rulings: bounded in bytes too, so it stays far under gRPC's
// message limit (field_bounds.h).
absl::Status CheckBatchSize(const std::vector<v1::Event>& events) {
  if (events.empty()) return absl::InvalidArgumentError("events: the batch is empty");
  if (events.size() > Recorder::kMaxBatch) {
    return absl::InvalidArgumentError(
        absl::StrCat("events: at most ", Recorder::kMaxBatch, " per batch"));
  }
  size_t batch_bytes = 0;
  for (const v1::Event& e : events) batch_bytes += e.ByteSizeLong();
  if (batch_bytes > kMaxBatchBytes) {
    return absl::InvalidArgumentError(absl::StrCat("events: ", batch_bytes,
                                                   " bytes in one batch, at most ", kMaxBatchBytes,
                                                   "; send smaller batches"));
  }
  return absl::OkStatus();
}

// A time ahead of the clock is a typing mistake unless a record is
// replayed: seen here, before it rules a lateness loss and makes every
// later event "earlier than the previous one".
absl::Status CheckNotAhead(const v1::Event& e, const std::string& where,
                           const Recorder::Rules& rules, bool can_replay) {
  if (rules.max_skew == absl::InfiniteDuration()) return absl::OkStatus();
  const absl::Time now = rules.now();
  if (const absl::Time at = FromProto(e.at()); at > now + rules.max_skew) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "`at` ", absl::FormatTime(absl::RFC3339_full, at, absl::UTCTimeZone()),
        " is more than ", absl::FormatDuration(rules.max_skew), " ahead of the server's clock (",
        absl::FormatTime(absl::RFC3339_sec, now, absl::UTCTimeZone()), "); ",
        can_replay ? "if the events replay an earlier record, say so (AppendEventsRequest.replay, "
                     "`arbiter record --replay`)"
                   : "leave `at` out (the CLI's --at) for the server's own time"));
  }
  return absl::OkStatus();
}

// A gameCreated belongs to the game it is recorded in: one naming no game
// is given this one's id, one naming another is refused.
absl::Status CheckGameNamed(v1::Event& e, const std::string& game_id, const std::string& where) {
  if (!e.has_game_created()) return absl::OkStatus();
  if (e.game_created().game_id().empty()) e.mutable_game_created()->set_game_id(game_id);
  if (e.game_created().game_id() != game_id) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "gameCreated names game '", e.game_created().game_id(), "', not '", game_id, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::RecordedEvent> Decode(const v1::LedgerEntry& entry) {
  v1::RecordedEvent out;
  if (!out.mutable_event()->ParseFromString(entry.event())) {
    return absl::DataLossError(
        absl::StrCat("position ", entry.position(), ": the stored event does not parse"));
  }
  out.set_game(ResourceName("games", entry.game_id()));
  out.set_position(entry.position());
  out.set_revision(entry.revision());
  *out.mutable_rulings() = entry.rulings();
  return out;
}

Recorder::Recorder(ledger::Ledger* ledger, GameFolds* folds, Rules rules)
    : ledger_(ledger), folds_(folds), rules_(std::move(rules)) {}

absl::StatusOr<v1::AppendEventsResponse> Recorder::Append(const Caller& caller,
                                                          const std::string& game_id,
                                                          std::optional<uint64_t> expected,
                                                          std::vector<v1::Event> events,
                                                          AppendMode mode) {
  // The asynchronous path, waited for: one way through for every write.
  absl::StatusOr<v1::AppendEventsResponse> out;
  absl::Notification answered;
  AppendAsync(caller, game_id, expected, std::move(events), mode,
              [&](absl::StatusOr<v1::AppendEventsResponse> r) {
                out = std::move(r);
                answered.Notify();
              });
  answered.WaitForNotification();
  return out;
}

void Recorder::AppendAsync(const Caller& caller, const std::string& game_id,
                           std::optional<uint64_t> expected, std::vector<v1::Event> events,
                           AppendMode mode, AppendDone done) {
  if (absl::Status s = Check(caller, game_id, mode, events); !s.ok()) return done(s);
  ledger::AppendRequest request =
      ledger::AppendRequest::Game(game_id, Expecting(expected), std::move(events));
  request.preview = mode.validate_only;
  ledger_->Append(std::move(request),
                  [this, game_id, preview = mode.validate_only,
                   done = std::move(done)](absl::StatusOr<ledger::Appended> appended) {
                    if (preview) return done(AnswerPreview(game_id, std::move(appended)));
                    if (!appended.ok()) return done(appended.status());
                    done(Answer(game_id, std::move(appended->entries), appended->fold.get()));
                  });
}

void Recorder::AppendAsync(const Caller& caller, const v1::AppendEventsRequest& request,
                           AppendDone done) {
  absl::StatusOr<std::string> id = ParseResourceName("games", request.game(), "game");
  if (!id.ok()) return done(id.status());
  std::optional<uint64_t> expected;
  if (request.has_expected_revision()) expected = request.expected_revision();
  AppendAsync(caller, *id, expected, {request.events().begin(), request.events().end()},
              AppendMode{.replay = request.replay(), .validate_only = request.validate_only()},
              std::move(done));
}

ledger::ExpectedRevision Recorder::Expecting(std::optional<uint64_t> expected) {
  return expected.has_value() ? ledger::ExpectedRevision::Exactly(*expected)
                              : ledger::ExpectedRevision::Any();
}

absl::Status Recorder::Check(const Caller& caller, const std::string& game_id,
                             const AppendMode& mode, std::vector<v1::Event>& events) {
  // What the gRPC interceptor checks before an ARBITER's record call, here
  // again for every front end.
  if (absl::Status s = caller.MayRecordIn(game_id); !s.ok()) return s;
  if (absl::Status s = CheckBatchSize(events); !s.ok()) return s;
  for (size_t i = 0; i < events.size(); ++i) {
    v1::Event& e = events[i];
    // Bounded before anything else looks at it (field_bounds.h).
    if (absl::Status s = CheckBounds(e, absl::StrCat("events[", i, "]")); !s.ok()) return s;
    // The authenticated caller, never the client's claim.
    e.set_actor(caller.actor);
    e.set_authority(caller.authority());
    const std::string where = absl::StrCat("events[", i, "]: ");
    if (e.kind_case() == v1::Event::KIND_NOT_SET) {
      return absl::InvalidArgumentError(absl::StrCat(where, "the event has no kind"));
    }
    // Whatever the method, the event's kind decides who may record it: only
    // a role that may create games sends a gameCreated.
    if (!caller.Holds(EventAccess(e))) {
      return absl::PermissionDeniedError(
          absl::StrCat(where, RoleWithArticle(*caller.role), " token may not record ",
                       v1::Event::descriptor()->FindFieldByNumber(e.kind_case())->json_name()));
    }
    if (!e.has_at())
      return absl::InvalidArgumentError(absl::StrCat(where, "the event has no time (`at`)"));
    if (!mode.replay) {
      if (absl::Status s = CheckNotAhead(e, where, rules_, mode.can_replay); !s.ok()) return s;
    }
    if (absl::Status s = CheckGameNamed(e, game_id, where); !s.ok()) return s;
    if (e.has_game_created()) {
      if (absl::Status s = CheckNewGame(e.game_created()); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(where, s.message()));
      }
    }
  }
  if (rules_.venue_games != nullptr) {
    absl::Status s = rules_.venue_games->CheckWritable(game_id, [&]() -> absl::StatusOr<bool> {
      absl::StatusOr<uint64_t> revision = ledger_->log().GameRevision(game_id);
      if (!revision.ok()) return revision.status();
      return *revision > 0;
    });
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::AppendEventsResponse> Recorder::Answer(const std::string& game_id,
                                                          std::vector<v1::LedgerEntry> entries,
                                                          const ledger::GameJudge* fold) {
  v1::AppendEventsResponse out;
  for (const v1::LedgerEntry& entry : entries) {
    absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
    if (!r.ok()) return r.status();
    *out.add_events() = *std::move(r);
  }
  out.set_revision(entries.back().revision());
  // The ledger hands the game's fold with the commit, at this append's
  // revision: no second lookup. A retry answered with recorded entries
  // made no fold: the game is read as it stands.
  if (fold == nullptr) {
    absl::StatusOr<GameView> game = folds_->Get(game_id);
    if (!game.ok()) return game.status();
    fold = game->fold.get();
  }
  if (const v1::Result* result = fold->result(); result != nullptr) {
    *out.mutable_result() = *result;
  }
  return out;
}

absl::StatusOr<v1::AppendEventsResponse> Recorder::AnswerPreview(
    const std::string& game_id, absl::StatusOr<ledger::Appended> preview) {
  if (!preview.ok()) return preview.status();
  // A retry of recorded events is answered as the real retry is.
  if (preview->recorded) return Answer(game_id, std::move(preview->entries), nullptr);
  v1::AppendEventsResponse out;
  for (const v1::LedgerEntry& entry : preview->entries) {
    absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
    if (!r.ok()) return r.status();
    *out.add_events() = *std::move(r);
  }
  out.set_revision(preview->entries.back().revision());
  if (preview->result.has_value()) *out.mutable_result() = *std::move(preview->result);
  return out;
}

absl::Status Recorder::Stamp(const std::string& game_id, const google::protobuf::Timestamp* at,
                             v1::Event& event) {
  if (at != nullptr) {
    *event.mutable_at() = *at;
    return absl::OkStatus();
  }
  // A retry of a request the server stamped gets the first stamp again, so
  // the retried event is the recorded one and the ledger answers with it.
  if (!event.idempotency_key().empty()) {
    absl::StatusOr<std::optional<v1::LedgerEntry>> recorded =
        ledger_->log().FindKey(game_id, event.idempotency_key());
    if (!recorded.ok()) return recorded.status();
    if (recorded->has_value()) {
      v1::Event first;
      if (!first.ParseFromString((*recorded)->event())) {
        return absl::DataLossError(absl::StrCat("position ", (*recorded)->position(),
                                                ": the stored event does not parse"));
      }
      *event.mutable_at() = first.at();
      return absl::OkStatus();
    }
  }
  ToProto(rules_.now(), event.mutable_at());
  return absl::OkStatus();
}

absl::StatusOr<std::string> Recorder::CreateGame(const Caller& caller,
                                                 const v1::CreateGameRequest& request) {
  std::string id = request.game().game_id();
  if (id.empty()) {
    if (!request.request_id().empty()) {
      return absl::InvalidArgumentError(
          "game.game_id: a retryable create (with request_id) must name its game");
    }
    id = NewGameId();
  }
  if (absl::Status s = CheckId("game", id); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("game.game_id: ", s.message()));
  }
  // A game is between two players: one set up without them is a mistake
  // that stays in the ledger (issue 29).
  for (const auto& [field, player] :
       {std::pair{"black", &request.game().black()}, std::pair{"white", &request.game().white()}}) {
    if (absl::Status s = CheckPlayerName(field, player->name()); !s.ok()) return s;
  }
  v1::Event event;
  *event.mutable_game_created() = request.game();
  event.mutable_game_created()->set_game_id(id);
  event.set_idempotency_key(request.request_id());
  if (absl::Status s = Stamp(id, request.has_at() ? &request.at() : nullptr, event); !s.ok()) {
    return s;
  }
  // A creation the server stamps is scheduled, unless it says otherwise, at
  // that stamp: a client's own clock here would make its retry differ.
  if (!request.has_at() && !event.game_created().has_scheduled_start()) {
    *event.mutable_game_created()->mutable_scheduled_start() = event.at();
  }
  absl::StatusOr<v1::AppendEventsResponse> appended =
      Append(caller, id, 0, {std::move(event)}, AppendMode{.can_replay = false});
  if (!appended.ok()) return appended.status();
  return id;
}

absl::StatusOr<v1::AppendEventsResponse> Recorder::Decide(const Caller& caller,
                                                          const v1::DecideRequest& request) {
  // The method's own admission step (admission.h), as gRPC's handler runs
  // it, for every front end (the console's Decide comes here directly):
  // the request's bounds, then the caller's authority over its game.
  const MethodAdmission* admission = MethodAdmission::ForRequest(*request.GetDescriptor());
  if (admission == nullptr) return absl::InternalError("Decide declares no admission");
  if (absl::Status s = admission->Check(caller, request); !s.ok()) return s;
  absl::StatusOr<std::string> id = ParseResourceName("games", request.game(), "game");
  if (!id.ok()) return id.status();
  if (request.ruling() == 0)
    return absl::InvalidArgumentError("ruling: a ruling number is required");
  if (request.choice().empty())
    return absl::InvalidArgumentError("choice: an option id is required");
  v1::Event event;
  event.set_idempotency_key(request.request_id());
  if (absl::Status s = Stamp(*id, request.has_at() ? &request.at() : nullptr, event); !s.ok()) {
    return s;
  }
  v1::ArbiterDecision* d = event.mutable_arbiter_decision();
  d->set_ruling(request.ruling());
  d->set_choice(request.choice());
  d->set_note(request.note());
  std::optional<uint64_t> expected;
  if (request.has_expected_revision()) expected = request.expected_revision();
  return Append(caller, *id, expected, {std::move(event)},
                AppendMode{.validate_only = request.validate_only(), .can_replay = false});
}

}  // namespace arbiter::service
