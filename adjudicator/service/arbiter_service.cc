// The game methods: create, append, decide, read, list and watch.
#include "adjudicator/service/arbiter_service.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/game_reads.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {
namespace {

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;
// A page also ends before its items pass this many bytes, far under gRPC's
// 4 MiB message limit whatever the items hold (one item is at most an event
// of 16 KiB with its rulings: field_bounds.h).
constexpr size_t kMaxPageBytes = 1 << 20;
// How often a watch stream checks that its client and the server are still
// there while no event comes.
constexpr absl::Duration kWatchPoll = absl::Milliseconds(200);

// Page tokens are opaque to clients: a prefix naming what they page over,
// then the last item delivered.
std::string PageToken(char kind, uint64_t after) {
  return absl::StrCat(std::string(1, kind), after);
}

absl::StatusOr<uint64_t> ParsePageToken(const std::string& token, char kind) {
  uint64_t after = 0;
  if (token.empty()) return after;
  if (token[0] != kind || !absl::SimpleAtoi(token.substr(1), &after)) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_token: '", token, "' is not a token of this list"));
  }
  return after;
}

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0) return absl::InvalidArgumentError("page_size must not be negative");
  if (requested == 0) return kDefaultPageSize;
  return std::min(requested, kMaxPageSize);
}

}  // namespace

ArbiterService::ArbiterService(ledger::Ledger* ledger, GameFolds* folds, const Callers* callers,
                               std::function<absl::Time()> now)
    : ledger_(ledger), folds_(folds), callers_(callers), recorder_(ledger, folds, std::move(now)) {}

grpc::Status ArbiterService::CreateGame(grpc::ServerContext* context,
                                        const v1::CreateGameRequest* req, v1::Game* out) {
  return callers_->Serve(context, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id = recorder_.CreateGame(caller, *req);
    if (!id.ok()) return id.status();
    return FillGame(*folds_, *id, out);
  });
}

grpc::Status ArbiterService::GetGame(grpc::ServerContext* context, const v1::GetGameRequest* req,
                                     v1::Game* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    return FillGame(*folds_, *id, out);
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
    absl::StatusOr<v1::AppendEventsResponse> r =
        recorder_.Append(caller, *id, expected, std::move(events), req->replay());
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::Decide(grpc::ServerContext* context, const v1::DecideRequest* req,
                                    v1::AppendEventsResponse* out) {
  return callers_->Serve(context, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<v1::AppendEventsResponse> r = recorder_.Decide(caller, *req);
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
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
    size_t bytes = 0;
    uint64_t last = *after;
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return r.status();
      bytes += r->ByteSizeLong();
      if (bytes > kMaxPageBytes && out->events_size() > 0) break;
      *out->add_events() = *std::move(r);
      last = entry.revision();
    }
    if (last < *revision) out->set_next_page_token(PageToken('e', last));
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
    size_t bytes = 0;
    for (; i < end; ++i) {
      bytes += all[i].ByteSizeLong();
      if (bytes > kMaxPageBytes && out->rulings_size() > 0) break;
      *out->add_rulings() = all[i];
    }
    if (i < all.size()) out->set_next_page_token(PageToken('r', i));
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
