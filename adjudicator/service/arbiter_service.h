// The arbiter.v1.Arbiter gRPC service (proto/arbiter/v1/service.proto): the
// ledger for writes and history, the read model (game_folds.h) for state,
// the rules database for texts. Every method runs as its admitted Caller
// (auth_interceptor.h), validates its request before touching the ledger,
// and maps errors to the status codes the proto documents. Its writes go
// through the Recorder (recorder.h), the one write path of a game.
#ifndef ARBITER_ADJUDICATOR_SERVICE_ARBITER_SERVICE_H_
#define ARBITER_ADJUDICATOR_SERVICE_ARBITER_SERVICE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_interceptor.h"
#include "adjudicator/service/export_pages.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/record_stream.h"
#include "adjudicator/service/recorder.h"
#include "adjudicator/service/venue_games.h"
#include "adjudicator/service/watch_hub.h"
#include "adjudicator/service/webhook_admin.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "ledger/judge.h"
#include "ledger/ledger.h"

namespace arbiter::service {

// The watch methods are gRPC callback methods (watch_stream.h): a stream
// holds no thread of the server's pool and a bounded buffer. Their requests
// are typed (the interceptor checks them like any other), their responses
// raw bytes: an event is serialized once for all the streams that send it
// (watch_hub.h), and clients read the same WatchResponses. So is
// AppendEvents, the method clocks call at every move: its handler runs on
// the thread that read the request and is answered from the thread that
// commits it (Recorder::AppendAsync), with no hand-off through the
// synchronous pool; and RecordEvents, the same over one open stream
// (record_stream.h). The others are synchronous.
class ArbiterService final
    : public v1::Arbiter::WithCallbackMethod_AppendEvents<
          v1::Arbiter::WithCallbackMethod_RecordEvents<v1::Arbiter::Service>> {
 public:
  // None owned; all must outlive the service. `recorder` is the server's
  // one write path, shared with the web console. `venue_games` (may be
  // null: SyncVenueGame is then FAILED_PRECONDITION) are the venues' games
  // SyncVenueGame writes. A watch stream whose message has waited
  // `watch_stall` for a client that does not read is cancelled
  // (watch_stream.h).
  // `webhooks` (may be null: the webhook methods are then
  // FAILED_PRECONDITION) are the store's endpoints.
  ArbiterService(ledger::Ledger* ledger, GameFolds* folds, const Callers* callers,
                 Recorder* recorder, VenueGames* venue_games, absl::Duration watch_stall,
                 WebhookAdmin* webhooks = nullptr);

  // Ends the watch and record streams and waits, until `deadline` at most,
  // for their statuses to be written (WatchHub::AwaitStreamsEnded,
  // RecordStreams::Shutdown): called before gRPC's shutdown, which
  // otherwise waits for them and says GOAWAY first.
  void BeginShutdown(absl::Time deadline) {
    watch_hub_.Shutdown();
    record_streams_.Shutdown(deadline);
    watch_hub_.AwaitStreamsEnded(deadline);
  }

  grpc::Status CreateGame(grpc::ServerContext*, const v1::CreateGameRequest*, v1::Game*) override;
  grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest*, v1::Game*) override;
  grpc::ServerUnaryReactor* AppendEvents(grpc::CallbackServerContext*,
                                         const v1::AppendEventsRequest*,
                                         v1::AppendEventsResponse*) override;
  grpc::ServerBidiReactor<v1::AppendEventsRequest, v1::AppendEventsResponse>* RecordEvents(
      grpc::CallbackServerContext*) override;
  grpc::Status ListEvents(grpc::ServerContext*, const v1::ListEventsRequest*,
                          v1::ListEventsResponse*) override;
  grpc::Status ListRulings(grpc::ServerContext*, const v1::ListRulingsRequest*,
                           v1::ListRulingsResponse*) override;
  grpc::Status Decide(grpc::ServerContext*, const v1::DecideRequest*,
                      v1::AppendEventsResponse*) override;
  grpc::Status VerifyGame(grpc::ServerContext*, const v1::VerifyGameRequest*,
                          v1::VerifyGameResponse*) override;
  grpc::Status GetCheckpoint(grpc::ServerContext*, const v1::GetCheckpointRequest*,
                             v1::SignedCheckpoint*) override;
  grpc::Status GetInclusionProof(grpc::ServerContext*, const v1::GetInclusionProofRequest*,
                                 v1::InclusionProof*) override;
  grpc::Status ExportGame(grpc::ServerContext*, const v1::ExportGameRequest*,
                          v1::ExportGameResponse*) override;
  grpc::Status GetRuleset(grpc::ServerContext*, const v1::GetRulesetRequest*,
                          v1::RulesetView*) override;
  grpc::Status GetClause(grpc::ServerContext*, const v1::GetClauseRequest*, v1::Clause*) override;
  grpc::Status SyncVenueGame(grpc::ServerContext*, const v1::SyncVenueGameRequest*,
                             v1::SyncVenueGameResponse*) override;
  grpc::Status AddWebhook(grpc::ServerContext*, const v1::AddWebhookRequest*,
                          v1::Webhook*) override;
  grpc::Status ListWebhooks(grpc::ServerContext*, const v1::ListWebhooksRequest*,
                            v1::ListWebhooksResponse*) override;
  grpc::Status RemoveWebhook(grpc::ServerContext*, const v1::RemoveWebhookRequest*,
                             v1::RemoveWebhookResponse*) override;
  grpc::Status RetryWebhook(grpc::ServerContext*, const v1::RetryWebhookRequest*,
                            v1::RetryWebhookResponse*) override;

 private:
  ledger::Ledger* ledger_;
  GameFolds* folds_;
  const Callers* callers_;
  Recorder* recorder_;  // the one write path
  VenueGames* venue_games_;
  WebhookAdmin* webhooks_;
  // WatchGame and WatchAll, registered as callback methods that write bytes.
  grpc::ServerWriteReactor<grpc::ByteBuffer>* OpenWatchGame(grpc::CallbackServerContext*,
                                                            const v1::WatchGameRequest*);
  grpc::ServerWriteReactor<grpc::ByteBuffer>* OpenWatchAll(grpc::CallbackServerContext*,
                                                           const v1::WatchAllRequest*);

  ExportPages export_pages_;  // ExportGame's files, kept between pages
  WatchHub watch_hub_;
  RecordStreams record_streams_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_ARBITER_SERVICE_H_
