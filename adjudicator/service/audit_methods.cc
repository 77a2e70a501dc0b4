// The audit, export and rules methods: VerifyGame, GetCheckpoint,
// GetInclusionProof, ExportGame, GetRuleset and GetClause.
#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/arbiter_service.h"
#include "adjudicator/service/game_reads.h"
#include "ledger/hash.h"
#include "ledger/stream.h"
#include "proto/canonical/sha256.h"
#include "proto/names/resource_name.h"
#include "rulesdb/rules.h"

namespace arbiter::service {

grpc::Status ArbiterService::VerifyGame(grpc::ServerContext* context,
                                        const v1::VerifyGameRequest* req,
                                        v1::VerifyGameResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    absl::StatusOr<v1::VerifyGameResponse> verified = service::VerifyGame(*ledger_, *folds_, *id);
    if (!verified.ok()) return verified.status();
    *out = *std::move(verified);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::GetCheckpoint(grpc::ServerContext* context,
                                           const v1::GetCheckpointRequest* req,
                                           v1::SignedCheckpoint* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    if (req->at_head()) {
      absl::StatusOr<v1::Checkpoint> c = ledger_->Checkpoint();
      if (!c.ok()) return c.status();
      *out->mutable_checkpoint() = *std::move(c);
    } else {
      absl::StatusOr<v1::Checkpoint> latest = ledger_->checkpoint_index().Latest();
      if (absl::IsNotFound(latest.status())) {
        return absl::NotFoundError("no checkpoint has been signed yet (ask with at_head)");
      }
      if (!latest.ok()) return latest.status();
      *out->mutable_checkpoint() = *std::move(latest);
    }
    out->set_public_key(ledger_->identity().public_key_der());
    out->set_public_key_pem(ledger_->identity().PublicKeyPem());
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::GetInclusionProof(grpc::ServerContext* context,
                                               const v1::GetInclusionProofRequest* req,
                                               v1::InclusionProof* out) {
  // Admitted as every method is (its request's bounds), though it reads no
  // caller.
  if (absl::StatusOr<Caller> caller = callers_->Of(context, *req); !caller.ok()) {
    return ToGrpc(caller.status());
  }
  absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
  if (!id.ok()) return ToGrpc(id.status());
  if (req->revision() == 0)
    return ToGrpc(absl::InvalidArgumentError("revision: must be 1 or more"));
  absl::StatusOr<uint64_t> revision = ledger_->log().GameRevision(*id);
  if (!revision.ok()) return ToGrpc(revision.status());
  if (*revision == 0)
    return ToGrpc(absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist")));
  if (req->revision() > *revision) {
    return ToGrpc(absl::NotFoundError(
        absl::StrCat("game '", *id, "' has ", *revision, " events, not ", req->revision())));
  }
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      ledger_->log().ReadGame(*id, req->revision() - 1, 1);
  if (!entries.ok()) return ToGrpc(entries.status());
  if (entries->empty()) return ToGrpc(absl::InternalError("the event vanished"));
  const v1::LedgerEntry& entry = entries->front();

  v1::Checkpoint checkpoint;
  if (req->tree_size() == 0) {
    absl::StatusOr<v1::Checkpoint> c = CheckpointCovering(*ledger_, entry.position());
    if (!c.ok()) return ToGrpc(c.status());
    checkpoint = *std::move(c);
  } else {
    absl::StatusOr<std::optional<v1::Checkpoint>> c =
        ledger_->checkpoint_index().OfSize(req->tree_size());
    if (!c.ok()) return ToGrpc(c.status());
    if (!c->has_value()) {
      return ToGrpc(
          absl::NotFoundError(absl::StrCat("no checkpoint of tree size ", req->tree_size())));
    }
    checkpoint = **std::move(c);
    if (checkpoint.tree_size() < entry.position()) {
      return ToGrpc(absl::InvalidArgumentError(
          absl::StrCat("tree_size: the checkpoint of size ", req->tree_size(),
                       " does not cover position ", entry.position())));
    }
  }
  absl::StatusOr<ledger::InclusionProofResult> proof =
      ledger_->proofs().ProveInclusion(entry.position(), checkpoint.tree_size());
  if (!proof.ok()) return ToGrpc(proof.status());
  *out->mutable_entry()->mutable_entry() = entry;
  for (const ledger::Hash& h : proof->path) {
    out->mutable_entry()->add_inclusion_proof(std::string(AsBytes(h)));
  }
  *out->mutable_checkpoint() = std::move(checkpoint);
  out->set_leaf_hash(std::string(AsBytes(ledger::EntryLeafHash(entry))));
  return grpc::Status::OK;
}

namespace {

// The stream ExportGame exports: a game's ("games/{id}"), or, as a BUNDLE
// only, a tournament's ("tournaments/{id}", its stream's name), which is
// how a venue's sync reads a tournament from its server.
absl::StatusOr<std::string> ExportedStream(const v1::ExportGameRequest& req) {
  if (!absl::StartsWith(req.name(), ledger::kTournamentStreamPrefix)) {
    return ParseResourceName("games", req.name(), "name");
  }
  if (req.format() != v1::ExportGameRequest::BUNDLE) {
    return absl::InvalidArgumentError("format: a tournament is exported as a bundle only");
  }
  absl::StatusOr<std::string> id = ParseResourceName("tournaments", req.name(), "name");
  if (!id.ok()) return id.status();
  return absl::StrCat(ledger::kTournamentStreamPrefix, *id);
}

}  // namespace

grpc::Status ArbiterService::ExportGame(grpc::ServerContext* context,
                                        const v1::ExportGameRequest* req,
                                        v1::ExportGameResponse* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ExportedStream(*req);
    if (!id.ok()) return id.status();
    absl::StatusOr<v1::ExportGameResponse> page =
        export_pages_.Page(*ledger_, *folds_, *id, req->format(), req->page_token());
    if (!page.ok()) return page.status();
    *out = *std::move(page);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::GetRuleset(grpc::ServerContext* context,
                                        const v1::GetRulesetRequest* req, v1::RulesetView* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("rulesets", req->name(), "name");
    if (!id.ok()) return id.status();
    absl::StatusOr<Rules> rules = LoadRules(*id, req->supplement());
    if (!rules.ok()) return rules.status();
    out->set_name(req->name());
    *out->mutable_ruleset() = rules->ruleset();
    out->set_hash(rules->hash());
    if (rules->supplement() != nullptr) *out->mutable_supplement() = *rules->supplement();
    out->set_supplement_hash(rules->supplement_hash());
    *out->mutable_parameters() = rules->params();
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::GetClause(grpc::ServerContext* context,
                                       const v1::GetClauseRequest* req, v1::Clause* out) {
  return callers_->Serve(context, *req, [&](const Caller&) -> absl::Status {
    const std::string& clause = req->clause();
    const size_t slash = clause.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == clause.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "clause: expected \"<ruleset>/<article>[.<clause>]\", got \"", clause, "\""));
    }
    absl::StatusOr<Rules> rules = LoadRules(clause.substr(0, slash));
    if (!rules.ok()) return rules.status();
    const v1::Clause* found = rules->FindClause(clause);
    if (found == nullptr) {
      return absl::NotFoundError(absl::StrCat("clause '", clause, "' is not in ", rules->id()));
    }
    *out = *found;
    return absl::OkStatus();
  });
}

}  // namespace arbiter::service
