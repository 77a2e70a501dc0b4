// The audit, export and rules methods: VerifyGame, GetCheckpoint,
// GetInclusionProof, ExportGame, GetRuleset and GetClause.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/service/arbiter_service.h"
#include "google/protobuf/util/json_util.h"
#include "ledger/audit.h"
#include "ledger/hash.h"
#include "proto/canonical/sha256.h"
#include "proto/names/resource_name.h"
#include "rulesdb/rules.h"

namespace arbiter::service {

absl::StatusOr<v1::GameRecord> ArbiterService::Record(const std::string& game_id) {
  v1::GameRecord record;
  record.set_game_id(game_id);
  absl::StatusOr<GameView> view = folds_->Get(game_id);
  if (!view.ok()) return view.status();
  const uint64_t upto = view->revision;
  record.set_rules_pin(view->rules_pin());
  for (const v1::Ruling& r : view->game().rulings()) *record.add_rulings() = r;
  if (view->game().result() != nullptr) *record.mutable_result() = *view->game().result();
  *record.mutable_state() = view->game().State();
  // The events as recorded, up to the revision the fold showed.
  uint64_t after = 0;
  while (after < upto) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger_->ReadGame(game_id, after, std::min<uint64_t>(1000, upto - after));
    if (!entries.ok()) return entries.status();
    if (entries->empty()) break;
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return r.status();
      *record.add_events() = *std::move(r);
      after = entry.revision();
    }
  }
  return record;
}

grpc::Status ArbiterService::VerifyGame(grpc::ServerContext* context,
                                        const v1::VerifyGameRequest* req,
                                        v1::VerifyGameResponse* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    absl::StatusOr<GameView> view = folds_->Get(*id);
    if (!view.ok()) return view.status();
    out->set_rules_pin(view->rules_pin());
    out->set_game_events(view->revision);
    out->set_game_rulings(view->game().rulings().size());
    // Re-adjudicated from the stored events by a judge of its own: the read
    // model is what is being checked, not what checks.
    AdjudicatorJudge judge;
    ledger::AuditOptions options;
    options.game_id = *id;
    options.public_key_der = ledger_->public_key_der();
    options.judge = &judge;
    absl::StatusOr<ledger::AuditReport> report = ledger_->Audit(options);
    if (!report.ok()) return report.status();
    out->set_intact(report->intact);
    out->set_why(report->why);
    out->set_first_bad_position(report->first_bad_position);
    out->set_events(report->events);
    out->set_games(report->games);
    out->set_rulings(report->rulings);
    out->set_checkpoints(report->checkpoints);
    out->set_readjudicated(report->readjudicated && report->games_readjudicated > 0);
    out->set_key_id(report->key_id_hex);
    out->set_signed_size(report->signed_size);
    out->set_signed_root(report->signed_root_hex);
    return absl::OkStatus();
  });
}

grpc::Status ArbiterService::GetCheckpoint(grpc::ServerContext* context,
                                           const v1::GetCheckpointRequest* req,
                                           v1::SignedCheckpoint* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    if (req->at_head()) {
      absl::StatusOr<v1::Checkpoint> c = ledger_->Checkpoint();
      if (!c.ok()) return c.status();
      *out->mutable_checkpoint() = *std::move(c);
    } else {
      absl::StatusOr<std::vector<v1::Checkpoint>> all = ledger_->Checkpoints();
      if (!all.ok()) return all.status();
      if (all->empty()) {
        return absl::NotFoundError("no checkpoint has been signed yet (ask with at_head)");
      }
      *out->mutable_checkpoint() = all->back();
    }
    out->set_public_key(ledger_->public_key_der());
    out->set_public_key_pem(ledger_->PublicKeyPem());
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::Checkpoint> ArbiterService::CheckpointCovering(uint64_t position) {
  absl::StatusOr<std::vector<v1::Checkpoint>> all = ledger_->Checkpoints();
  if (!all.ok()) return all.status();
  for (const v1::Checkpoint& c : *all) {
    if (c.tree_size() >= position) return c;
  }
  // None yet: sign one at the head, which covers every committed event.
  return ledger_->Checkpoint();
}

grpc::Status ArbiterService::GetInclusionProof(grpc::ServerContext*,
                                               const v1::GetInclusionProofRequest* req,
                                               v1::InclusionProof* out) {
  absl::StatusOr<std::string> id = ParseResourceName("games", req->game(), "game");
  if (!id.ok()) return ToGrpc(id.status());
  if (req->revision() == 0)
    return ToGrpc(absl::InvalidArgumentError("revision: must be 1 or more"));
  absl::StatusOr<uint64_t> revision = ledger_->GameRevision(*id);
  if (!revision.ok()) return ToGrpc(revision.status());
  if (*revision == 0)
    return ToGrpc(absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist")));
  if (req->revision() > *revision) {
    return ToGrpc(absl::NotFoundError(
        absl::StrCat("game '", *id, "' has ", *revision, " events, not ", req->revision())));
  }
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      ledger_->ReadGame(*id, req->revision() - 1, 1);
  if (!entries.ok()) return ToGrpc(entries.status());
  if (entries->empty()) return ToGrpc(absl::InternalError("the event vanished"));
  const v1::LedgerEntry& entry = entries->front();

  v1::Checkpoint checkpoint;
  if (req->tree_size() == 0) {
    absl::StatusOr<v1::Checkpoint> c = CheckpointCovering(entry.position());
    if (!c.ok()) return ToGrpc(c.status());
    checkpoint = *std::move(c);
  } else {
    absl::StatusOr<std::vector<v1::Checkpoint>> all = ledger_->Checkpoints();
    if (!all.ok()) return ToGrpc(all.status());
    bool found = false;
    for (const v1::Checkpoint& c : *all) {
      if (c.tree_size() == req->tree_size()) {
        checkpoint = c;
        found = true;
      }
    }
    if (!found) {
      return ToGrpc(
          absl::NotFoundError(absl::StrCat("no checkpoint of tree size ", req->tree_size())));
    }
    if (checkpoint.tree_size() < entry.position()) {
      return ToGrpc(absl::InvalidArgumentError(
          absl::StrCat("tree_size: the checkpoint of size ", req->tree_size(),
                       " does not cover position ", entry.position())));
    }
  }
  absl::StatusOr<ledger::InclusionProofResult> proof =
      ledger_->ProveInclusion(entry.position(), checkpoint.tree_size());
  if (!proof.ok()) return ToGrpc(proof.status());
  *out->mutable_entry()->mutable_entry() = entry;
  for (const ledger::Hash& h : proof->path) {
    out->mutable_entry()->add_inclusion_proof(std::string(AsBytes(h)));
  }
  *out->mutable_checkpoint() = std::move(checkpoint);
  out->set_leaf_hash(std::string(AsBytes(ledger::LeafHash(entry.event()))));
  return grpc::Status::OK;
}

grpc::Status ArbiterService::ExportGame(grpc::ServerContext* context,
                                        const v1::ExportGameRequest* req,
                                        v1::ExportGameResponse* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("games", req->name(), "name");
    if (!id.ok()) return id.status();
    switch (req->format()) {
      case v1::ExportGameRequest::SGF:
      case v1::ExportGameRequest::JSON: {
        absl::StatusOr<v1::GameRecord> record = Record(*id);
        if (!record.ok()) return record.status();
        if (req->format() == v1::ExportGameRequest::JSON) {
          google::protobuf::util::JsonPrintOptions print;
          print.always_print_primitive_fields = true;
          std::string json;
          if (auto s = google::protobuf::util::MessageToJsonString(*record, &json, print);
              !s.ok()) {
            return absl::InternalError(std::string(s.message()));
          }
          out->set_content_type("application/json");
          out->set_content(json + "\n");
          out->set_filename(absl::StrCat(*id, ".json"));
          return absl::OkStatus();
        }
        std::vector<v1::Event> events;
        for (const v1::RecordedEvent& e : record->events()) events.push_back(e.event());
        absl::StatusOr<Rules> rules = RulesOf(events.front().game_created(), record->rules_pin());
        if (!rules.ok()) return rules.status();
        absl::StatusOr<std::string> sgf = ExportSgf(*std::move(rules), events, record->rules_pin());
        if (!sgf.ok()) return sgf.status();
        out->set_content_type("application/x-go-sgf");
        out->set_content(*std::move(sgf));
        out->set_filename(absl::StrCat(*id, ".sgf"));
        return absl::OkStatus();
      }
      case v1::ExportGameRequest::BUNDLE: {
        absl::StatusOr<v1::AuditBundle> bundle = ledger_->ExportBundle(*id);
        if (!bundle.ok()) return bundle.status();
        out->set_content_type("application/x-protobuf; messageType=arbiter.v1.AuditBundle");
        out->set_content(bundle->SerializeAsString());
        out->set_filename(absl::StrCat(*id, ".bundle"));
        return absl::OkStatus();
      }
      default:
        return absl::InvalidArgumentError("format: SGF, JSON or BUNDLE");
    }
  });
}

grpc::Status ArbiterService::GetRuleset(grpc::ServerContext* context,
                                        const v1::GetRulesetRequest* req, v1::RulesetView* out) {
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
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
  return callers_->Serve(context, [&](const Caller&) -> absl::Status {
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
