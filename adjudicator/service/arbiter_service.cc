// The game methods: create, append, decide, read, list and watch.
#include "adjudicator/service/arbiter_service.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/game_reads.h"
#include "adjudicator/service/watch_stream.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {
namespace {

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;
// A page also ends before its items pass kMaxPageBytes (field_bounds.h), far
// under gRPC's 4 MiB message limit whatever the items hold (one item is at
// most an event of 16 KiB with its rulings).

// Which game a page token belongs to: FNV-1a (64 bits) of its id, stable
// across processes and servers. Not a secret (every role reads every game):
// it only keeps a token of one game's list from paging another's, which a
// bare revision did silently, from the middle of the stream.
std::string GameTag(const std::string& game) {
  uint64_t h = 0xcbf29ce484222325u;
  for (const char c : game) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3u;
  return absl::StrCat(absl::Hex(h, absl::kZeroPad16));
}

// Page tokens are opaque to clients: a prefix naming what they page over,
// the last item delivered, and the game's tag.
std::string PageToken(char kind, uint64_t after, const std::string& game) {
  return absl::StrCat(std::string(1, kind), after, ".", GameTag(game));
}

absl::StatusOr<uint64_t> ParsePageToken(const std::string& token, char kind,
                                        const std::string& game) {
  uint64_t after = 0;
  if (token.empty()) return after;
  const size_t dot = token.find('.');
  if (token[0] != kind || dot == std::string::npos ||
      !absl::SimpleAtoi(token.substr(1, dot - 1), &after) ||
      token.substr(dot + 1) != GameTag(game)) {
    return absl::InvalidArgumentError(absl::StrCat("page_token: ", QuotedPrefix(token),
                                                   " is not a token of this list of this game"));
  }
  return after;
}

// The threads that wake the watch streams (watch_hub.h): one per core of
// the 2-core machine the figures are from (tests/bench/README.md).
constexpr int kWatchThreads = 2;

// A method's index among the generated service's (their order in
// service.proto), which MarkMethodCallback takes.
int ArbiterMethodIndex(absl::string_view name) {
  return v1::WatchAllRequest::descriptor()
      ->file()
      ->FindServiceByName("Arbiter")
      ->FindMethodByName(std::string(name))
      ->index();
}

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0) return absl::InvalidArgumentError("page_size must not be negative");
  if (requested == 0) return kDefaultPageSize;
  return std::min(requested, kMaxPageSize);
}

}  // namespace

ArbiterService::ArbiterService(ledger::Ledger* ledger, GameFolds* folds, const Callers* callers,
                               Recorder* recorder, VenueGames* venue_games,
                               absl::Duration watch_stall, WebhookAdmin* webhooks)
    : ledger_(ledger),
      folds_(folds),
      callers_(callers),
      recorder_(recorder),
      venue_games_(venue_games),
      webhooks_(webhooks),
      watch_hub_(ledger, kMaxWatchBufferBytes, watch_stall, kWatchThreads) {
  MarkMethodCallback(
      ArbiterMethodIndex("WatchGame"),
      new grpc::internal::CallbackServerStreamingHandler<v1::WatchGameRequest, grpc::ByteBuffer>(
          [this](grpc::CallbackServerContext* context, const v1::WatchGameRequest* req) {
            return OpenWatchGame(context, req);
          }));
  MarkMethodCallback(
      ArbiterMethodIndex("WatchAll"),
      new grpc::internal::CallbackServerStreamingHandler<v1::WatchAllRequest, grpc::ByteBuffer>(
          [this](grpc::CallbackServerContext* context, const v1::WatchAllRequest* req) {
            return OpenWatchAll(context, req);
          }));
}

grpc::Status ArbiterService::CreateGame(grpc::ServerContext* context,
                                        const v1::CreateGameRequest* req, v1::Game* out) {
  return callers_->Serve(context, *req, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id = recorder_->CreateGame(caller, *req);
    if (!id.ok()) return id.status();
    return FillGame(*folds_, *id, out);
  });
}

grpc::Status ArbiterService::GetGame(grpc::ServerContext* context, const v1::GetGameRequest* req,
                                     v1::Game* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    return FillGame(*folds_, *id, out);
  });
}

grpc::ServerUnaryReactor* ArbiterService::AppendEvents(grpc::CallbackServerContext* context,
                                                       const v1::AppendEventsRequest* req,
                                                       v1::AppendEventsResponse* out) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  // gRPC keeps `out` until the reactor is finished, from whichever thread.
  auto finish = [reactor, out](absl::StatusOr<v1::AppendEventsResponse> r) {
    if (r.ok()) *out = *std::move(r);
    reactor->Finish(ToGrpc(r.status()));
  };
  absl::StatusOr<Caller> caller = callers_->Of(context, *req);
  if (!caller.ok()) {
    finish(caller.status());
    return reactor;
  }
  recorder_->AppendAsync(*caller, *req, std::move(finish));
  return reactor;
}

grpc::ServerBidiReactor<v1::AppendEventsRequest, v1::AppendEventsResponse>*
ArbiterService::RecordEvents(grpc::CallbackServerContext* context) {
  return RecordStream::Open(context, callers_, recorder_, &record_streams_);
}

grpc::Status ArbiterService::SyncVenueGame(grpc::ServerContext* context,
                                           const v1::SyncVenueGameRequest* req,
                                           v1::SyncVenueGameResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    if (venue_games_ == nullptr) {
      return absl::FailedPreconditionError("this server takes no venue's games");
    }
    absl::StatusOr<v1::SyncVenueGameResponse> r = venue_games_->Sync(*req, *ledger_);
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

namespace {

absl::Status NoWebhooks() { return absl::FailedPreconditionError("this server keeps no webhooks"); }

}  // namespace

grpc::Status ArbiterService::AddWebhook(grpc::ServerContext* context,
                                        const v1::AddWebhookRequest* req, v1::Webhook* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    if (webhooks_ == nullptr) return NoWebhooks();
    absl::StatusOr<v1::Webhook> r = webhooks_->Add(*req);
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::ListWebhooks(grpc::ServerContext* context,
                                          const v1::ListWebhooksRequest* req,
                                          v1::ListWebhooksResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    if (webhooks_ == nullptr) return NoWebhooks();
    absl::StatusOr<v1::ListWebhooksResponse> r = webhooks_->List();
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::RemoveWebhook(grpc::ServerContext* context,
                                           const v1::RemoveWebhookRequest* req,
                                           v1::RemoveWebhookResponse*) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    return webhooks_ == nullptr ? NoWebhooks() : webhooks_->Remove(req->id());
  });
}

grpc::Status ArbiterService::RetryWebhook(grpc::ServerContext* context,
                                          const v1::RetryWebhookRequest* req,
                                          v1::RetryWebhookResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    if (webhooks_ == nullptr) return NoWebhooks();
    absl::StatusOr<int> n = webhooks_->Retry(req->id());
    if (!n.ok()) return n.status();
    out->set_failed_sent_again(*n);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::Decide(grpc::ServerContext* context, const v1::DecideRequest* req,
                                    v1::AppendEventsResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller& caller) -> absl::Status {
    absl::StatusOr<v1::AppendEventsResponse> r = recorder_->Decide(caller, *req);
    if (!r.ok()) return r.status();
    *out = *std::move(r);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::ListEvents(grpc::ServerContext* context,
                                        const v1::ListEventsRequest* req,
                                        v1::ListEventsResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<int> size = PageSize(req->page_size());
    if (!size.ok()) return size.status();
    absl::StatusOr<uint64_t> after = ParsePageToken(req->page_token(), 'e', *id);
    if (!after.ok()) return after.status();
    absl::StatusOr<uint64_t> revision = ledger_->log().GameRevision(*id);
    if (!revision.ok()) return revision.status();
    if (*revision == 0) return absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist"));
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger_->log().ReadGame(*id, *after, static_cast<size_t>(*size));
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
    if (last < *revision) out->set_next_page_token(PageToken('e', last, *id));
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::ListRulings(grpc::ServerContext* context,
                                         const v1::ListRulingsRequest* req,
                                         v1::ListRulingsResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<int> size = PageSize(req->page_size());
    if (!size.ok()) return size.status();
    absl::StatusOr<uint64_t> after = ParsePageToken(req->page_token(), 'r', *id);
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
    if (i < all.size()) out->set_next_page_token(PageToken('r', i, *id));
    if (view->game().result() != nullptr) *out->mutable_result() = *view->game().result();
    return absl::OkStatus();
  });
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* ArbiterService::OpenWatchGame(
    grpc::CallbackServerContext* context, const v1::WatchGameRequest* req) {
  absl::StatusOr<WatchTarget> target = [&]() -> absl::StatusOr<WatchTarget> {
    absl::StatusOr<Caller> caller = callers_->Of(context, *req);
    if (!caller.ok()) return caller.status();
    absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
    if (!id.ok()) return id.status();
    absl::StatusOr<uint64_t> revision = ledger_->log().GameRevision(*id);
    if (!revision.ok()) return revision.status();
    if (*revision == 0) return absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist"));
    // A client resumes after a revision it was sent, so never past the last.
    if (req->after_revision() > *revision) {
      return absl::InvalidArgumentError(absl::StrCat("after_revision ", req->after_revision(),
                                                     " is past game '", *id, "''s last revision, ",
                                                     *revision));
    }
    return WatchTarget{*id, req->after_revision()};
  }();
  if (!target.ok()) return WatchStream::Ended(target.status());
  return WatchStream::Start(context, &watch_hub_, *std::move(target));
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* ArbiterService::OpenWatchAll(
    grpc::CallbackServerContext* context, const v1::WatchAllRequest* req) {
  absl::StatusOr<Caller> caller = callers_->Of(context, *req);
  if (!caller.ok()) return WatchStream::Ended(caller.status());
  // As WatchGame: never past the log's last position (the database's, which
  // every server sharing it reads).
  absl::StatusOr<uint64_t> head = ledger_->log().Head();
  if (!head.ok()) return WatchStream::Ended(head.status());
  if (req->after_position() > *head) {
    return WatchStream::Ended(absl::InvalidArgumentError(absl::StrCat(
        "after_position ", req->after_position(), " is past the log's last position, ", *head)));
  }
  return WatchStream::Start(context, &watch_hub_, WatchTarget{std::nullopt, req->after_position()});
}

}  // namespace arbiter::service
