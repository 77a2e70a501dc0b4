#include "adjudicator/service/registration.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"

namespace arbiter::tournament {
namespace {

absl::Status FromGrpc(const grpc::Status& s) {
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

}  // namespace

GameSource GamesFrom(v1::Arbiter::Service* arbiter) {
  return [arbiter](const std::string& game_id) -> absl::StatusOr<GameFacts> {
    const std::string name = absl::StrCat("games/", game_id);
    GameFacts facts;
    {
      grpc::ServerContext context;
      v1::GetGameRequest req;
      req.set_name(name);
      v1::Game game;
      grpc::Status s = arbiter->GetGame(&context, &req, &game);
      if (!s.ok()) return FromGrpc(s);
      if (game.has_result()) facts.result = game.result();
    }
    v1::ListRulingsRequest req;
    req.set_game(name);
    req.set_page_size(1000);
    google::protobuf::RepeatedPtrField<v1::Ruling> history;  // CountWarnings needs all of it
    for (;;) {
      grpc::ServerContext context;
      v1::ListRulingsResponse page;
      grpc::Status s = arbiter->ListRulings(&context, &req, &page);
      if (!s.ok()) return FromGrpc(s);
      for (const v1::Ruling& r : page.rulings()) {
        if (facts.result.has_value() && r.number() == facts.result->ruling()) facts.deciding_ruling = r;
        *history.Add() = r;
      }
      if (page.next_page_token().empty()) break;
      req.set_page_token(page.next_page_token());
    }
    CountWarnings(history, &facts);
    return facts;
  };
}

absl::StatusOr<std::unique_ptr<TournamentHost>> RegisterTournamentService(grpc::ServerBuilder& builder,
                                                                          const std::string& data_dir,
                                                                          v1::Arbiter::Service* arbiter,
                                                                          service::Gatekeeper* gate) {
  auto host = std::make_unique<TournamentHost>();
  absl::StatusOr<std::unique_ptr<TournamentStore>> store = TournamentStore::Open(data_dir);
  if (!store.ok()) return store.status();
  host->store = *std::move(store);
  host->service = std::make_unique<TournamentServiceImpl>(host->store.get(), GamesFrom(arbiter));
  host->authorized = std::make_unique<service::AuthorizedTournamentService>(host->service.get(), gate);
  builder.RegisterService(host->authorized.get());
  return host;
}

}  // namespace arbiter::tournament
