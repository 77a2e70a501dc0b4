// The game methods: create, append, decide, read, list and watch.
#include "adjudicator/service/arbiter_service.h"

#include <algorithm>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/deadline.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {
namespace {

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;
constexpr size_t kMaxBatch = 1000;
// How often a watch stream checks that its client and the server are still
// there while no event comes.
constexpr absl::Duration kWatchPoll = absl::Milliseconds(200);

// Page tokens are opaque to clients: a prefix naming what they page over,
// then the last item delivered.
std::string PageToken(char kind, uint64_t after) { return absl::StrCat(std::string(1, kind), after); }

absl::StatusOr<uint64_t> ParsePageToken(const std::string& token, char kind) {
  uint64_t after = 0;
  if (token.empty()) return after;
  if (token[0] != kind || !absl::SimpleAtoi(token.substr(1), &after)) {
    return absl::InvalidArgumentError(absl::StrCat("page_token: '", token, "' is not a token of this list"));
  }
  return after;
}

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0) return absl::InvalidArgumentError("page_size must not be negative");
  if (requested == 0) return kDefaultPageSize;
  return std::min(requested, kMaxPageSize);
}

std::string NewGameId() {
  absl::BitGen gen;
  return absl::StrFormat("game-%016x", absl::Uniform<uint64_t>(gen));
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

ArbiterService::ArbiterService(ledger::Ledger* ledger, GameFolds* folds, const Callers* callers,
                               std::function<absl::Time()> now)
    : ledger_(ledger), folds_(folds), callers_(callers), now_(std::move(now)) {}

absl::Status ArbiterService::Append(const Caller& caller, const std::string& game_id,
                                    std::optional<uint64_t> expected, std::vector<v1::Event> events,
                                    v1::AppendEventsResponse* out) {
  if (events.empty()) return absl::InvalidArgumentError("events: the batch is empty");
  if (events.size() > kMaxBatch) {
    return absl::InvalidArgumentError(absl::StrCat("events: at most ", kMaxBatch, " per batch"));
  }
  for (size_t i = 0; i < events.size(); ++i) {
    v1::Event& e = events[i];
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
      return absl::PermissionDeniedError(absl::StrCat(
          where, "a ", RoleName(*caller.role), " token may not record ",
          v1::Event::descriptor()->FindFieldByNumber(e.kind_case())->json_name()));
    }
    if (!e.has_at()) return absl::InvalidArgumentError(absl::StrCat(where, "the event has no time (`at`)"));
    if (e.has_game_created()) {
      if (e.game_created().game_id().empty()) e.mutable_game_created()->set_game_id(game_id);
      if (e.game_created().game_id() != game_id) {
        return absl::InvalidArgumentError(absl::StrCat(where, "gameCreated names game '",
                                                       e.game_created().game_id(), "', not '",
                                                       game_id, "'"));
      }
    }
  }
  const ledger::ExpectedRevision want = expected.has_value()
                                            ? ledger::ExpectedRevision::Exactly(*expected)
                                            : ledger::ExpectedRevision::Any();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      ledger_->Append(game_id, want, std::move(events));
  if (!entries.ok()) return entries.status();
  for (const v1::LedgerEntry& entry : *entries) {
    absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
    if (!r.ok()) return r.status();
    *out->add_events() = *std::move(r);
  }
  out->set_revision(entries->back().revision());
  // The ledger handed the read model this append's fold before it
  // answered: no re-read, no second fold. (Another append to the game may
  // already have followed; the result is the game's as it now stands.)
  absl::StatusOr<GameView> game = folds_->Get(game_id);
  if (!game.ok()) return game.status();
  if (const v1::Result* result = game->game().result(); result != nullptr) {
    *out->mutable_result() = *result;
  }
  return absl::OkStatus();
}

absl::Status ArbiterService::FillGame(const std::string& game_id, v1::Game* out) {
  absl::StatusOr<GameView> view = folds_->Get(game_id);
  if (!view.ok()) return view.status();
  const Adjudicator& a = view->game();
  out->set_name(ResourceName("games", game_id));
  out->set_game_id(game_id);
  *out->mutable_created() = a.game();
  out->set_rules_pin(view->rules_pin());
  out->set_revision(view->revision);
  *out->mutable_state() = a.State();
  if (a.result() != nullptr) *out->mutable_result() = *a.result();
  for (uint32_t number : out->state().pending_rulings()) {
    if (number >= 1 && number <= a.rulings().size()) {
      *out->add_pending_rulings() = a.rulings()[number - 1];
    }
  }
  out->set_ruling_count(static_cast<uint32_t>(a.rulings().size()));
  // The timekeeper acts on the same computation from the same fold.
  if (std::optional<Deadline> d = NextDeadline(a); d.has_value()) {
    ToProto(d->fire_at, out->mutable_next_deadline());
  }
  return absl::OkStatus();
}

grpc::Status ArbiterService::CreateGame(grpc::ServerContext* context,
                                        const v1::CreateGameRequest* req, v1::Game* out) {
  return callers_->Serve(context, [&](const Caller& caller) -> absl::Status {
    std::string id = req->game().game_id();
    if (id.empty()) {
      if (!req->request_id().empty()) {
        return absl::InvalidArgumentError(
            "game.game_id: a retryable create (with request_id) must name its game");
      }
      id = NewGameId();
    }
    if (absl::Status s = CheckId("game", id); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("game.game_id: ", s.message()));
    }
    v1::Event event;
    *event.mutable_game_created() = req->game();
    event.mutable_game_created()->set_game_id(id);
    if (req->has_at()) {
      *event.mutable_at() = req->at();
    } else {
      ToProto(now_(), event.mutable_at());
    }
    event.set_idempotency_key(req->request_id());
    v1::AppendEventsResponse appended;
    if (absl::Status s = Append(caller, id, 0, {std::move(event)}, &appended); !s.ok()) return s;
    return FillGame(id, out);
  });
}

grpc::Status ArbiterService::GetGame(grpc::ServerContext* context, const v1::GetGameRequest* req,
                                     v1::Game* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    return FillGame(*id, out);
  });
}

grpc::Status ArbiterService::AppendEvents(grpc::ServerContext* context,
                                          const v1::AppendEventsRequest* req,
                                          v1::AppendEventsResponse* out) {
  return callers_->Serve(context, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    std::optional<uint64_t> expected;
    if (req->has_expected_revision()) expected = req->expected_revision();
    std::vector<v1::Event> events(req->events().begin(), req->events().end());
    return Append(caller, *id, expected, std::move(events), out);
  });
}

grpc::Status ArbiterService::Decide(grpc::ServerContext* context, const v1::DecideRequest* req,
                                    v1::AppendEventsResponse* out) {
  return callers_->Serve(context, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    if (req->ruling() == 0) return absl::InvalidArgumentError("ruling: a ruling number is required");
    if (req->choice().empty()) return absl::InvalidArgumentError("choice: an option id is required");
    v1::Event event;
    if (req->has_at()) {
      *event.mutable_at() = req->at();
    } else {
      ToProto(now_(), event.mutable_at());
    }
    event.set_idempotency_key(req->request_id());
    v1::ArbiterDecision* d = event.mutable_arbiter_decision();
    d->set_ruling(req->ruling());
    d->set_choice(req->choice());
    d->set_note(req->note());
    std::optional<uint64_t> expected;
    if (req->has_expected_revision()) expected = req->expected_revision();
    return Append(caller, *id, expected, {std::move(event)}, out);
  });
}

grpc::Status ArbiterService::ListEvents(grpc::ServerContext* context,
                                        const v1::ListEventsRequest* req,
                                        v1::ListEventsResponse* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<int> size = PageSize(req->page_size());
    if (!size.ok()) return size.status();
    absl::StatusOr<uint64_t> after = ParsePageToken(req->page_token(), 'e');
    if (!after.ok()) return after.status();
    absl::StatusOr<uint64_t> revision = ledger_->GameRevision(*id);
    if (!revision.ok()) return revision.status();
    if (*revision == 0) return absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist"));
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger_->ReadGame(*id, *after, static_cast<size_t>(*size));
    if (!entries.ok()) return entries.status();
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return r.status();
      *out->add_events() = *std::move(r);
    }
    if (!entries->empty() && entries->back().revision() < *revision) {
      out->set_next_page_token(PageToken('e', entries->back().revision()));
    }
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::ListRulings(grpc::ServerContext* context,
                                         const v1::ListRulingsRequest* req,
                                         v1::ListRulingsResponse* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<int> size = PageSize(req->page_size());
    if (!size.ok()) return size.status();
    absl::StatusOr<uint64_t> after = ParsePageToken(req->page_token(), 'r');
    if (!after.ok()) return after.status();
    // The fold's ruling history is the recorded one (the fold is
    // deterministic; VerifyGame re-checks it against the stored rulings).
    absl::StatusOr<GameView> view = folds_->Get(*id);
    if (!view.ok()) return view.status();
    const std::vector<v1::Ruling>& all = view->game().rulings();
    size_t i = std::min<uint64_t>(*after, all.size());
    const size_t end = std::min(all.size(), i + static_cast<size_t>(*size));
    for (; i < end; ++i) *out->add_rulings() = all[i];
    if (end < all.size()) out->set_next_page_token(PageToken('r', end));
    if (view->game().result() != nullptr) *out->mutable_result() = *view->game().result();
    return absl::OkStatus();
  });
}

absl::Status ArbiterService::Stream(grpc::ServerContext* context,
                                    ledger::Subscription& subscription, bool by_game,
                                    grpc::ServerWriter<v1::WatchResponse>* writer) {
  const absl::Status gone = absl::CancelledError("the client went away");
  bool caught_up = false;
  uint64_t last_position = 0;
  while (!context->IsCancelled()) {
    if (shutting_down_) return absl::UnavailableError("the server is shutting down");
    // Until caught up, take what is committed without waiting.
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        subscription.Next(caught_up ? kWatchPoll : absl::ZeroDuration(), 256);
    if (!entries.ok()) {
      if (absl::IsCancelled(entries.status())) {
        return absl::UnavailableError("the server is shutting down");
      }
      return entries.status();
    }
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return r.status();
      last_position = entry.position();
      v1::WatchResponse msg;
      *msg.mutable_event() = *std::move(r);
      if (!writer->Write(msg)) return gone;
    }
    if (entries->empty() && !caught_up) {
      caught_up = true;
      v1::WatchResponse msg;
      if (by_game) {
        msg.mutable_caught_up()->set_revision(subscription.cursor());
      } else {
        msg.mutable_caught_up()->set_position(std::max(last_position, subscription.cursor()));
      }
      if (!writer->Write(msg)) return gone;
    }
  }
  return gone;
}

grpc::Status ArbiterService::WatchGame(grpc::ServerContext* context,
                                       const v1::WatchGameRequest* req,
                                       grpc::ServerWriter<v1::WatchResponse>* writer) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<uint64_t> revision = ledger_->GameRevision(*id);
    if (!revision.ok()) return revision.status();
    if (*revision == 0) return absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist"));
    absl::StatusOr<std::unique_ptr<ledger::Subscription>> sub =
        ledger_->SubscribeGame(*id, req->after_revision());
    if (!sub.ok()) return sub.status();
    return Stream(context, **sub, /*by_game=*/true, writer);
  });
}

grpc::Status ArbiterService::WatchAll(grpc::ServerContext* context, const v1::WatchAllRequest* req,
                                      grpc::ServerWriter<v1::WatchResponse>* writer) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::unique_ptr<ledger::Subscription>> sub =
        ledger_->SubscribeLog(req->after_position());
    if (!sub.ok()) return sub.status();
    return Stream(context, **sub, /*by_game=*/false, writer);
  });
}

}  // namespace arbiter::service
