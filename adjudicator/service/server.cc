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

  // The steps of Server::Start, each making the parts the next ones use.
  absl::Status OpenTokens(const ServerOptions& options, const std::string& location);
  absl::StatusOr<std::shared_ptr<ledger::ReaderPool>> OpenReadModel(const std::string& location);
  absl::Status OpenWitnessing(const ServerOptions& options, const std::string& location);
  absl::Status OpenLedger(const ServerOptions& options, const std::string& location,
                          std::shared_ptr<ledger::ReaderPool> readers);
  absl::Status MakeWritePath(const ServerOptions& options, const std::string& location);
  absl::Status OpenWebhooks(const ServerOptions& options, const std::string& location);
  void ConfigureGrpc(grpc::ServerBuilder& builder);
  absl::Status AddTournaments(grpc::ServerBuilder& builder, const ServerOptions& options);
  absl::Status ServeConsole(const ServerOptions& options);
  absl::Status Listen(grpc::ServerBuilder& builder, const ServerOptions& options,
                      const std::shared_ptr<grpc::ServerCredentials>& credentials);
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

// Its tokens first, importing a tokens.db of an older release: whether
// there are any decides where the server may listen at all.
absl::Status Server::Parts::OpenTokens(const ServerOptions& options, const std::string& location) {
  absl::StatusOr<std::unique_ptr<TokenStore>> opened =
      TokenStore::Open(location, options.data_dir, options.token_clock);
  if (!opened.ok()) return opened.status();
  tokens = *std::move(opened);
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return secured.status();
  if (!*secured && !IsLoopback(options.listen)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no tokens: the server runs open, so only on loopback; create one with "
                     "`arbiter token create` before listening on ",
                     options.listen));
  }
  return absl::OkStatus();
}

// The store and its readers first: the read model reads the ledger
// through them and is the ledger's judge, so it is made before the
// ledger, which then shares them (no wiring after construction).
absl::StatusOr<std::shared_ptr<ledger::ReaderPool>> Server::Parts::OpenReadModel(
    const std::string& location) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok()) return store.status();
  auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
  folds = std::make_unique<GameFolds>(readers);
  return readers;
}

// The server as a witness of other logs (--witness-key) and the store of
// its own witnesses' cosignatures (--witness): both outlive the ledger's
// followers that use them.
absl::Status Server::Parts::OpenWitnessing(const ServerOptions& options,
                                           const std::string& location) {
  if (!options.witness.key_file.empty()) {
    if (options.http_listen.empty()) {
      return absl::FailedPreconditionError(
          "--witness-key: a witness answers over HTTP; give --http HOST:PORT");
    }
    absl::StatusOr<std::unique_ptr<ledger::Witness>> opened = OpenWitness(
        options.witness, (std::filesystem::path(options.data_dir) / "witness").string());
    if (!opened.ok()) return opened.status();
    witness = *std::move(opened);
  }
  if (!options.witnesses.empty()) {
    // In the ledger's database, with those of an older release's
    // cosignatures.db in the data folder imported once.
    absl::StatusOr<std::unique_ptr<ledger::Store>> at = ledger::OpenStore(location);
    if (!at.ok()) return at.status();
    absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> store =
        ledger::CosignatureStore::Open(**at, options.data_dir);
    if (!store.ok()) return store.status();
    cosignatures = *std::move(store);
  }
  return absl::OkStatus();
}

// The ledger over the read model's readers, judged by the read model, and
// the feed that sends its checkpoints to its witnesses.
absl::Status Server::Parts::OpenLedger(const ServerOptions& options, const std::string& location,
                                       std::shared_ptr<ledger::ReaderPool> readers) {
  ledger::LedgerOptions lo;
  lo.dir = location;
  lo.readers = std::move(readers);
  lo.key_dir = options.data_dir;
  lo.log_origin = options.log_origin;
  lo.judge = folds.get();
  lo.checkpoint_every = options.checkpoint_every;
  lo.sign_within = options.sign_within;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> opened = ledger::Ledger::Open(lo);
  if (!opened.ok()) return opened.status();
  ledger = *std::move(opened);
  if (!options.witnesses.empty()) {
    absl::StatusOr<std::vector<WitnessFeed::Target>> targets =
        WitnessFeed::ParseTargets(options.witnesses);
    if (!targets.ok()) return targets.status();
    witness_feed =
        std::make_unique<WitnessFeed>(ledger.get(), *std::move(targets), cosignatures.get());
  }
  return absl::OkStatus();
}

// What every front end shares to write and to be let in: the venue games,
// the gate, the one recorder and what follows its commits (timekeeper,
// webhooks), and the gRPC service over them.
absl::Status Server::Parts::MakeWritePath(const ServerOptions& options,
                                          const std::string& location) {
  // The venue tables live beside the ledger's, in its database.
  absl::StatusOr<std::unique_ptr<VenueGames>> venue =
      VenueGames::Open(location, options.venue_keys);
  if (!venue.ok()) return venue.status();
  venue_games = *std::move(venue);
  gate = std::make_unique<Gatekeeper>(tokens.get(), options.limits);
  callers = std::make_unique<Callers>();
  // Built once, for every front end that writes (issue 27.2: the console's
  // own recorder never had the clock guard).
  recorder = std::make_unique<Recorder>(
      ledger.get(), folds.get(),
      Recorder::Rules{.max_skew = options.max_skew, .venue_games = venue_games.get()});
  if (options.live_timers) {
    timekeeper = std::make_unique<Timekeeper>(ledger.get(), folds.get(), recorder.get());
  }
  if (absl::Status s = OpenWebhooks(options, location); !s.ok()) return s;
  service =
      std::make_unique<ArbiterService>(ledger.get(), folds.get(), callers.get(), recorder.get(),
                                       venue_games.get(), options.watch_stall, webhook_admin.get());
  return absl::OkStatus();
}

// The deliverer (with --webhook-key) and the endpoints of the webhook
// methods, which wake it when a hook changes.
absl::Status Server::Parts::OpenWebhooks(const ServerOptions& options,
                                         const std::string& location) {
  if (!options.webhook_key.empty()) {
    absl::StatusOr<std::unique_ptr<WebhookDeliverer>> deliverer =
        StartWebhooks(options, location, ledger.get(), folds.get(), cosignatures.get());
    if (!deliverer.ok()) return deliverer.status();
    webhooks = *std::move(deliverer);
  }
  absl::StatusOr<std::unique_ptr<ledger::Store>> at = ledger::OpenStore(location);
  if (!at.ok()) return at.status();
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables =
      (*at)->OpenServerTables(/*read_only=*/false);
  if (!tables.ok()) return tables.status();
  WebhookDeliverer* deliverer = webhooks.get();
  webhook_admin = std::make_unique<WebhookAdmin>(
      ledger.get(), *std::move(tables),
      deliverer == nullptr ? std::function<void()>() : [deliverer] { deliverer->Wake(); });
  return absl::OkStatus();
}

// gRPC's guard, service and threads.
void Server::Parts::ConfigureGrpc(grpc::ServerBuilder& builder) {
  // gRPC sets SO_REUSEPORT by default: a second server then bound a port
  // in use and took a share of its calls. Off, that port is refused.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<AuthInterceptorFactory>(gate.get(), callers.get()));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  builder.RegisterService(service.get());
  builder.SetMaxReceiveMessageSize(4 << 20);
  // Requests come uncompressed only. gRPC 1.51 inflates a compressed
  // message whole before it compares its size with the limit above, and
  // before the interceptor's refusal of a call without a token takes
  // effect: 1 MB of gzip on the wire became 1 GiB in the server. With gzip
  // and deflate disabled, a call whose grpc-encoding names either is
  // refused (UNIMPLEMENTED) by its headers, before its message is read
  // (GrpcLimitsTest.ACompressedRequestIsRefusedBeforeItIsInflated).
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_GZIP, false);
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_DEFLATE, false);
  // A synchronous handler that waits (a CreateGame or Decide for its
  // commit, a read for its rows) takes its thread out of polling; with
  // gRPC's default of at most 2 idle pollers, every request arriving
  // meanwhile started a thread and every one finishing ended one, which
  // cost more than an append itself. Up to kIdlePollers threads now go back
  // to polling instead, enough for the sync methods' usual concurrency.
  // (AppendEvents and RecordEvents are callback methods and hold none.)
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, kIdlePollers);
}

// arbiter.v1.TournamentService, whose rounds' games are created under the
// rules every other write of a game is held to: the server's one Recorder.
absl::Status Server::Parts::AddTournaments(grpc::ServerBuilder& builder,
                                           const ServerOptions& options) {
  tournament::GameMaker make_game = [writer = recorder.get()](const Caller& caller,
                                                              const v1::CreateGameRequest& req) {
    return writer->CreateGame(caller, req).status();
  };
  absl::StatusOr<std::unique_ptr<tournament::TournamentHost>> host =
      tournament::RegisterTournamentService(
          builder, ledger.get(), options.data_dir,
          options.ledger.empty() ? options.data_dir : options.ledger, folds.get(), callers.get(),
          std::move(make_game));
  if (!host.ok()) return host.status();
  tournaments = *std::move(host);
  return absl::OkStatus();
}

// The web console (with --http), over the same parts as gRPC's service.
absl::Status Server::Parts::ServeConsole(const ServerOptions& options) {
  if (options.http_listen.empty()) return absl::OkStatus();
  // The same certificate as gRPC's: the console serves HTTPS with it.
  absl::StatusOr<console::TlsContext> tls = console::MakeTlsContext(options.tls);
  if (!tls.ok()) return tls.status();
  absl::StatusOr<std::unique_ptr<console::Console>> served = console::Console::Serve(
      options.http_listen,
      console::ConsoleParts{folds.get(), ledger.get(), tokens.get(), gate.get(), recorder.get(),
                            tournaments.get(),
                            [admin = webhook_admin.get()] { return admin->List(); }},
      console::ConsoleOptions{.tls = *std::move(tls),
                              .host_names = options.http_hosts,
                              .insecure = options.http_insecure,
                              .feeds = options.http_feeds,
                              .connections = options.http_connections,
                              .viewers = options.broadcast_viewers,
                              .witness = witness.get(),
                              .cosignatures = cosignatures.get(),
                              .broadcast = options.broadcast,
                              .broadcast_delay = options.broadcast_delay,
                              .trusted_proxies = options.trusted_proxies,
                              .venue_time = options.venue_time});
  if (!served.ok()) return served.status();
  console = *std::move(served);
  return absl::OkStatus();
}

// Binds gRPC's port last, once everything it serves is ready, and announces
// the addresses in the data folder.
absl::Status Server::Parts::Listen(grpc::ServerBuilder& builder, const ServerOptions& options,
                                   const std::shared_ptr<grpc::ServerCredentials>& credentials) {
  int port = 0;  // filled in by BuildAndStart
  builder.AddListeningPort(options.listen, credentials, &port);
  if (absl::Status s = CheckBindable("--listen", options.listen); !s.ok()) return s;
  server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return CannotListen("--listen", options.listen);
  }
  const size_t colon = options.listen.rfind(':');
  address = absl::StrCat(options.listen.substr(0, colon), ":", port);
  return folder->Announce(address, console != nullptr ? console->address() : "");
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
  // server's).
  const std::string location = options.ledger.empty() ? options.data_dir : options.ledger;
  if (absl::Status s = parts->OpenTokens(options, location); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<ledger::ReaderPool>> readers = parts->OpenReadModel(location);
  if (!readers.ok()) return readers.status();
  if (absl::Status s = parts->OpenWitnessing(options, location); !s.ok()) return s;
  if (absl::Status s = parts->OpenLedger(options, location, *std::move(readers)); !s.ok()) {
    return s;
  }
  if (absl::Status s = parts->MakeWritePath(options, location); !s.ok()) return s;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  parts->ConfigureGrpc(builder);
  if (absl::Status s = parts->AddTournaments(builder, options); !s.ok()) return s;
  // The console after the tournaments, whose pages it shows and whose rounds
  // it starts.
  if (absl::Status s = parts->ServeConsole(options); !s.ok()) return s;
  if (absl::Status s = parts->Listen(builder, options, *credentials); !s.ok()) return s;
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
