#include "adjudicator/service/server.h"

#include <grpc/grpc.h>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/arbiter_service.h"
#include "adjudicator/service/auth_interceptor.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/console/console.h"
#include "adjudicator/service/folder_lock.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/listen_address.h"
#include "adjudicator/service/recorder.h"
#include "adjudicator/service/registration.h"
#include "adjudicator/service/timekeeper.h"
#include "adjudicator/service/webhooks.h"
#include "adjudicator/service/witness_feed.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/server_tables.h"
#include "ledger/store.h"
#include "ledger/webhook_signature.h"

namespace arbiter::service {

struct Server::Parts {
  std::optional<FolderLock> folder;  // this server's alone; released last
  std::unique_ptr<GameFolds> folds;  // the read model, and the ledger's judge
  std::unique_ptr<ledger::Ledger> ledger;
  std::unique_ptr<ledger::CosignatureStore> cosignatures;  // its witnesses' (with --witness)
  std::unique_ptr<WitnessFeed> witness_feed;  // sends its checkpoints (stops before the ledger)
  std::unique_ptr<VenueGames> venue_games;    // synced from venues: their games, kept theirs
  // The one write path, gRPC's and the console's (outlives both).
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<ledger::Witness> witness;   // of other logs, when asked for (outlives console)
  std::unique_ptr<console::Console> console;  // the web console, when asked for (stops first)
  std::unique_ptr<Timekeeper> timekeeper;
  std::unique_ptr<WebhookDeliverer> webhooks;   // with --webhook-key
  std::unique_ptr<WebhookAdmin> webhook_admin;  // the webhook methods' endpoints
  std::unique_ptr<TokenStore> tokens;
  std::unique_ptr<Gatekeeper> gate;
  std::unique_ptr<Callers> callers;
  std::unique_ptr<ArbiterService> service;
  std::unique_ptr<tournament::TournamentHost> tournaments;  // arbiter.v1.TournamentService
  std::unique_ptr<grpc::Server> server;
  std::string address;
  bool stopped = false;
};

Server::Server(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Server::~Server() { Shutdown(); }

const std::string& Server::address() const { return parts_->address; }

const std::string& Server::console_address() const {
  static const std::string kNone;
  return parts_->console != nullptr ? parts_->console->address() : kNone;
}

std::string Server::witness_vkey() const {
  return parts_->witness != nullptr ? parts_->witness->cosigner().VerifierKey() : "";
}

ledger::Ledger* Server::ledger() const { return parts_->ledger.get(); }

namespace {

// Idle threads the gRPC server keeps polling for requests (see Start).
// They stay once started: with its console's loop and workers and gRPC's
// own threads, 8 keep an idle server at most 32 threads after a load
// (tests/service/threads_test.cc; issue 45.3). The price: synchronous
// calls beyond 8 at once start and end threads (health Check at 32
// clients: about a quarter fewer calls/s than with 64); the appends are
// callback methods and pay nothing.
constexpr int kIdlePollers = 8;

// The webhook deliverer of `options.webhook_key`, on tables and a reader of
// its own (not yet started).
absl::StatusOr<std::unique_ptr<WebhookDeliverer>> StartWebhooks(
    const ServerOptions& options, const std::string& location, ledger::Ledger* ledger,
    GameFolds* folds, ledger::CosignatureStore* cosignatures) {
  absl::StatusOr<ledger::Signer> key = ledger::LoadWebhookKey(options.webhook_key);
  if (!key.ok()) return key.status();
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables =
      (*store)->OpenServerTables(/*read_only=*/false);
  if (!tables.ok()) return tables.status();
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> log = (*store)->OpenReader();
  if (!log.ok()) return log.status();
  WebhookDeliverer::Options o;
  o.sender.allow_private = options.webhook_allow_private;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  o.owner = absl::StrCat(host, ":", getpid(), ":", absl::ToUnixNanos(absl::Now()));
  return std::make_unique<WebhookDeliverer>(ledger, folds, *std::move(tables), *std::move(log),
                                            cosignatures, *std::move(key), std::move(o));
}

}  // namespace

void TurnOffDeadlockDetection() {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  auto parts = std::make_unique<Parts>();
  absl::StatusOr<FolderLock> folder = FolderLock::Acquire(options.data_dir);
  if (!folder.ok()) return folder.status();
  parts->folder.emplace(*std::move(folder));
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      ServerCredentialsFor(options.tls);
  if (!credentials.ok()) return credentials.status();
  // Everything but keys lives in the store (a PostgreSQL ledger's is every
  // server's): its tokens first, importing a tokens.db of an older release.
  const std::string location = options.ledger.empty() ? options.data_dir : options.ledger;
  absl::StatusOr<std::unique_ptr<TokenStore>> tokens =
      TokenStore::Open(location, options.data_dir, options.token_clock);
  if (!tokens.ok()) return tokens.status();
  parts->tokens = *std::move(tokens);
  absl::StatusOr<bool> secured = parts->tokens->Any();
  if (!secured.ok()) return secured.status();
  if (!*secured && !IsLoopback(options.listen)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no tokens: the server runs open, so only on loopback; create one with "
                     "`arbiter token create` before listening on ",
                     options.listen));
  }
  // The store and its readers first: the read model reads the ledger
  // through them and is the ledger's judge, so it is made before the
  // ledger, which then shares them (no wiring after construction).
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok()) return store.status();
  auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
  parts->folds = std::make_unique<GameFolds>(readers);
  if (!options.witness.key_file.empty()) {
    if (options.http_listen.empty()) {
      return absl::FailedPreconditionError(
          "--witness-key: a witness answers over HTTP; give --http HOST:PORT");
    }
    absl::StatusOr<std::unique_ptr<ledger::Witness>> witness = OpenWitness(
        options.witness, (std::filesystem::path(options.data_dir) / "witness").string());
    if (!witness.ok()) return witness.status();
    parts->witness = *std::move(witness);
  }
  if (!options.witnesses.empty()) {
    // In the ledger's database, with those of an older release's
    // cosignatures.db in the data folder imported once.
    absl::StatusOr<std::unique_ptr<ledger::Store>> at = ledger::OpenStore(location);
    if (!at.ok()) return at.status();
    absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> store =
        ledger::CosignatureStore::Open(**at, options.data_dir);
    if (!store.ok()) return store.status();
    parts->cosignatures = *std::move(store);
  }
  ledger::LedgerOptions lo;
  lo.dir = location;
  lo.readers = readers;
  lo.key_dir = options.data_dir;
  lo.log_origin = options.log_origin;
  lo.judge = parts->folds.get();
  lo.checkpoint_every = options.checkpoint_every;
  lo.sign_within = options.sign_within;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(lo);
  if (!ledger.ok()) return ledger.status();
  parts->ledger = *std::move(ledger);
  if (!options.witnesses.empty()) {
    absl::StatusOr<std::vector<WitnessFeed::Target>> targets =
        WitnessFeed::ParseTargets(options.witnesses);
    if (!targets.ok()) return targets.status();
    parts->witness_feed = std::make_unique<WitnessFeed>(parts->ledger.get(), *std::move(targets),
                                                        parts->cosignatures.get());
  }
  // The venue tables live beside the ledger's, in its database.
  absl::StatusOr<std::unique_ptr<VenueGames>> venue_games =
      VenueGames::Open(lo.dir, options.venue_keys);
  if (!venue_games.ok()) return venue_games.status();
  parts->venue_games = *std::move(venue_games);
  parts->gate = std::make_unique<Gatekeeper>(parts->tokens.get(), options.limits);
  parts->callers = std::make_unique<Callers>();
  // Built once, for every front end that writes (issue 27.2: the console's
  // own recorder never had the clock guard).
  parts->recorder = std::make_unique<Recorder>(
      parts->ledger.get(), parts->folds.get(),
      Recorder::Rules{.max_skew = options.max_skew, .venue_games = parts->venue_games.get()});
  if (options.live_timers) {
    parts->timekeeper = std::make_unique<Timekeeper>(parts->ledger.get(), parts->folds.get(),
                                                     parts->recorder.get());
  }
  if (!options.webhook_key.empty()) {
    absl::StatusOr<std::unique_ptr<WebhookDeliverer>> webhooks = StartWebhooks(
        options, location, parts->ledger.get(), parts->folds.get(), parts->cosignatures.get());
    if (!webhooks.ok()) return webhooks.status();
    parts->webhooks = *std::move(webhooks);
  }
  {
    absl::StatusOr<std::unique_ptr<ledger::Store>> at = ledger::OpenStore(location);
    if (!at.ok()) return at.status();
    absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables =
        (*at)->OpenServerTables(/*read_only=*/false);
    if (!tables.ok()) return tables.status();
    WebhookDeliverer* deliverer = parts->webhooks.get();
    parts->webhook_admin = std::make_unique<WebhookAdmin>(
        parts->ledger.get(), *std::move(tables),
        deliverer == nullptr ? std::function<void()>() : [deliverer] { deliverer->Wake(); });
  }
  parts->service = std::make_unique<ArbiterService>(
      parts->ledger.get(), parts->folds.get(), parts->callers.get(), parts->recorder.get(),
      parts->venue_games.get(), options.watch_stall, parts->webhook_admin.get());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, *credentials, &port);
  // gRPC sets SO_REUSEPORT by default: a second server then bound a port
  // in use and took a share of its calls. Off, that port is refused.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(
      std::make_unique<AuthInterceptorFactory>(parts->gate.get(), parts->callers.get()));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  builder.RegisterService(parts->service.get());
  builder.SetMaxReceiveMessageSize(4 << 20);
  // A synchronous handler that waits (a CreateGame or Decide for its
  // commit, a read for its rows) takes its thread out of polling; with
  // gRPC's default of at most 2 idle pollers, every request arriving
  // meanwhile started a thread and every one finishing ended one, which
  // cost more than an append itself. Up to kIdlePollers threads now go back
  // to polling instead, enough for the sync methods' usual concurrency.
  // (AppendEvents and RecordEvents are callback methods and hold none.)
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, kIdlePollers);
  // The round's games are created under the rules every other write of a
  // game is held to: the server's one Recorder.
  tournament::GameMaker make_game = [recorder = parts->recorder.get()](
                                        const Caller& caller, const v1::CreateGameRequest& req) {
    return recorder->CreateGame(caller, req).status();
  };
  absl::StatusOr<std::unique_ptr<tournament::TournamentHost>> tournaments =
      tournament::RegisterTournamentService(
          builder, parts->ledger.get(), options.data_dir,
          options.ledger.empty() ? options.data_dir : options.ledger, parts->folds.get(),
          parts->callers.get(), std::move(make_game));
  if (!tournaments.ok()) return tournaments.status();
  parts->tournaments = *std::move(tournaments);
  // The console after the tournaments, whose pages it shows and whose rounds
  // it starts.
  if (!options.http_listen.empty()) {
    // The same certificate as gRPC's: the console serves HTTPS with it.
    absl::StatusOr<console::TlsContext> tls = console::MakeTlsContext(options.tls);
    if (!tls.ok()) return tls.status();
    absl::StatusOr<std::unique_ptr<console::Console>> console = console::Console::Serve(
        options.http_listen,
        console::ConsoleParts{parts->folds.get(), parts->ledger.get(), parts->tokens.get(),
                              parts->gate.get(), parts->recorder.get(), parts->tournaments.get()},
        console::ConsoleOptions{.tls = *std::move(tls),
                                .host_names = options.http_hosts,
                                .insecure = options.http_insecure,
                                .feeds = options.http_feeds,
                                .connections = options.http_connections,
                                .viewers = options.broadcast_viewers,
                                .witness = parts->witness.get(),
                                .cosignatures = parts->cosignatures.get(),
                                .broadcast = options.broadcast,
                                .broadcast_delay = options.broadcast_delay,
                                .trusted_proxies = options.trusted_proxies});
    if (!console.ok()) return console.status();
    parts->console = *std::move(console);
  }
  if (absl::Status s = CheckBindable("--listen", options.listen); !s.ok()) return s;
  parts->server = builder.BuildAndStart();
  if (parts->server == nullptr || port == 0) {
    return CannotListen("--listen", options.listen);
  }
  const size_t colon = options.listen.rfind(':');
  parts->address = absl::StrCat(options.listen.substr(0, colon), ":", port);
  if (absl::Status s = parts->folder->Announce(
          parts->address, parts->console != nullptr ? parts->console->address() : "");
      !s.ok()) {
    return s;
  }
  if (parts->timekeeper != nullptr) parts->timekeeper->Start();
  parts->tournaments->standings->Start();
  if (parts->webhooks != nullptr) parts->webhooks->Start();
  return std::unique_ptr<Server>(new Server(std::move(parts)));
}

void Server::Shutdown(absl::Duration grace) {
  Parts& p = *parts_;
  if (p.stopped) return;
  p.stopped = true;
  if (grpc::HealthCheckServiceInterface* health = p.server->GetHealthCheckService()) {
    health->SetServingStatus(false);
  }
  const absl::Time deadline = absl::Now() + grace;
  p.service->BeginShutdown(deadline);
  if (p.console != nullptr) p.console->Stop();  // its live pages end, then its server
  p.server->Shutdown(absl::ToChronoTime(deadline));
  if (p.timekeeper != nullptr) p.timekeeper->Stop();
  p.tournaments->standings->Stop();
  if (p.witness_feed != nullptr) p.witness_feed->Stop();
  if (p.webhooks != nullptr) p.webhooks->Stop();
  p.ledger.reset();  // commits what is queued, then closes
}

}  // namespace arbiter::service
