// The audit, export and rules methods: VerifyGame, GetCheckpoint,
// GetInclusionProof, ExportGame, GetRuleset and GetClause.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/service/arbiter_service.h"
#include "adjudicator/service/grpc_status.h"
#include "adjudicator/service/names.h"
#include "google/protobuf/util/json_util.h"
#include "ledger/audit.h"
#include "ledger/bundle.h"
#include "ledger/hash.h"
#include "ledger/log_reader.h"
#include "rulesdb/rules.h"

namespace arbiter::service {
namespace {

absl::StatusOr<ledger::LogReader> Reader(ledger::Ledger* ledger) {
  return ledger::LogReader::Open(ledger->db_path());
}

}  // namespace

absl::StatusOr<v1::GameRecord> ArbiterService::Record(const std::string& game_id) {
  v1::GameRecord record;
  record.set_game_id(game_id);
  uint64_t upto = 0;
  absl::Status s = folds_->With(game_id, [&](const GameFold& fold) {
    upto = fold.revision;
    record.set_rules_pin(fold.rules_pin);
    for (const v1::Ruling& r : fold.adjudicator->rulings()) *record.add_rulings() = r;
    if (fold.adjudicator->result() != nullptr) *record.mutable_result() = *fold.adjudicator->result();
    *record.mutable_state() = fold.adjudicator->State();
  });
  if (!s.ok()) return s;
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

grpc::Status ArbiterService::VerifyGame(grpc::ServerContext*, const v1::VerifyGameRequest* req,
                                        v1::VerifyGameResponse* out) {
  absl::StatusOr<std::string> id = ParseGameName(req->name(), "name");
  if (!id.ok()) return ToGrpc(id.status());
  absl::Status s = folds_->With(*id, [&](const GameFold& fold) {
    out->set_rules_pin(fold.rules_pin);
    out->set_game_events(fold.revision);
    out->set_game_rulings(fold.adjudicator->rulings().size());
  });
  if (!s.ok()) return ToGrpc(s);
  absl::StatusOr<ledger::LogReader> reader = Reader(ledger_);
  if (!reader.ok()) return ToGrpc(reader.status());
  ledger::AuditOptions options;
  options.game_id = *id;
  options.public_key_der = ledger_->public_key_der();
  options.judge = judge_;
  absl::StatusOr<ledger::AuditReport> report = ledger::AuditLog(*reader, options);
  if (!report.ok()) return ToGrpc(report.status());
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
  return grpc::Status::OK;
}

grpc::Status ArbiterService::GetCheckpoint(grpc::ServerContext*, const v1::GetCheckpointRequest* req,
                                           v1::SignedCheckpoint* out) {
  if (req->at_head()) {
    absl::StatusOr<v1::Checkpoint> c = ledger_->Checkpoint();
    if (!c.ok()) return ToGrpc(c.status());
    *out->mutable_checkpoint() = *std::move(c);
  } else {
    absl::StatusOr<std::vector<v1::Checkpoint>> all = ledger_->Checkpoints();
    if (!all.ok()) return ToGrpc(all.status());
    if (all->empty()) {
      return ToGrpc(absl::NotFoundError("no checkpoint has been signed yet (ask with at_head)"));
    }
    *out->mutable_checkpoint() = all->back();
  }
  out->set_public_key(ledger_->public_key_der());
  out->set_public_key_pem(ledger_->PublicKeyPem());
  return grpc::Status::OK;
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
  absl::StatusOr<std::string> id = ParseGameName(req->game(), "game");
  if (!id.ok()) return ToGrpc(id.status());
  if (req->revision() == 0) return ToGrpc(absl::InvalidArgumentError("revision: must be 1 or more"));
  absl::StatusOr<uint64_t> revision = ledger_->GameRevision(*id);
  if (!revision.ok()) return ToGrpc(revision.status());
  if (*revision == 0) return ToGrpc(absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist")));
  if (req->revision() > *revision) {
    return ToGrpc(absl::NotFoundError(
        absl::StrCat("game '", *id, "' has ", *revision, " events, not ", req->revision())));
  }
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ledger_->ReadGame(*id, req->revision() - 1, 1);
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
      return ToGrpc(absl::NotFoundError(absl::StrCat("no checkpoint of tree size ", req->tree_size())));
    }
    if (checkpoint.tree_size() < entry.position()) {
      return ToGrpc(absl::InvalidArgumentError(absl::StrCat(
          "tree_size: the checkpoint of size ", req->tree_size(), " does not cover position ",
          entry.position())));
    }
  }
  absl::StatusOr<ledger::InclusionProofResult> proof =
      ledger_->ProveInclusion(entry.position(), checkpoint.tree_size());
  if (!proof.ok()) return ToGrpc(proof.status());
  *out->mutable_entry()->mutable_entry() = entry;
  for (const ledger::Hash& h : proof->path) {
    out->mutable_entry()->add_inclusion_proof(std::string(ledger::AsBytes(h)));
  }
  *out->mutable_checkpoint() = std::move(checkpoint);
  out->set_leaf_hash(std::string(ledger::AsBytes(ledger::LeafHash(entry.event()))));
  return grpc::Status::OK;
}

grpc::Status ArbiterService::ExportGame(grpc::ServerContext*, const v1::ExportGameRequest* req,
                                        v1::ExportGameResponse* out) {
  absl::StatusOr<std::string> id = ParseGameName(req->name(), "name");
  if (!id.ok()) return ToGrpc(id.status());
  switch (req->format()) {
    case v1::ExportGameRequest::SGF:
    case v1::ExportGameRequest::JSON: {
      absl::StatusOr<v1::GameRecord> record = Record(*id);
      if (!record.ok()) return ToGrpc(record.status());
      if (req->format() == v1::ExportGameRequest::JSON) {
        google::protobuf::util::JsonPrintOptions print;
        print.always_print_primitive_fields = true;
        std::string json;
        if (auto s = google::protobuf::util::MessageToJsonString(*record, &json, print); !s.ok()) {
          return grpc::Status(grpc::StatusCode::INTERNAL, std::string(s.message()));
        }
        out->set_content_type("application/json");
        out->set_content(json + "\n");
        out->set_filename(absl::StrCat(*id, ".json"));
        return grpc::Status::OK;
      }
      std::vector<v1::Event> events;
      for (const v1::RecordedEvent& e : record->events()) events.push_back(e.event());
      absl::StatusOr<Rules> rules = RulesOf(events.front().game_created(), record->rules_pin());
      if (!rules.ok()) return ToGrpc(rules.status());
      absl::StatusOr<std::string> sgf = ExportSgf(*std::move(rules), events, record->rules_pin());
      if (!sgf.ok()) return ToGrpc(sgf.status());
      out->set_content_type("application/x-go-sgf");
      out->set_content(*std::move(sgf));
      out->set_filename(absl::StrCat(*id, ".sgf"));
      return grpc::Status::OK;
    }
    case v1::ExportGameRequest::BUNDLE: {
      absl::StatusOr<uint64_t> revision = ledger_->GameRevision(*id);
      if (!revision.ok()) return ToGrpc(revision.status());
      if (*revision == 0) return ToGrpc(absl::NotFoundError(absl::StrCat("game '", *id, "' does not exist")));
      absl::StatusOr<ledger::LogReader> reader = Reader(ledger_);
      if (!reader.ok()) return ToGrpc(reader.status());
      absl::StatusOr<v1::AuditBundle> bundle = ledger::ExportBundle(*reader, *id);
      if (absl::IsFailedPrecondition(bundle.status())) {
        // No checkpoint covers the game's last event yet: sign one now.
        if (absl::StatusOr<v1::Checkpoint> c = ledger_->Checkpoint(); !c.ok()) return ToGrpc(c.status());
        bundle = ledger::ExportBundle(*reader, *id);
      }
      if (!bundle.ok()) return ToGrpc(bundle.status());
      out->set_content_type("application/x-protobuf; messageType=arbiter.v1.AuditBundle");
      out->set_content(bundle->SerializeAsString());
      out->set_filename(absl::StrCat(*id, ".bundle"));
      return grpc::Status::OK;
    }
    default:
      return ToGrpc(absl::InvalidArgumentError("format: SGF, JSON or BUNDLE"));
  }
}

grpc::Status ArbiterService::GetRuleset(grpc::ServerContext*, const v1::GetRulesetRequest* req,
                                        v1::RulesetView* out) {
  absl::StatusOr<std::string> id = ParseRulesetName(req->name());
  if (!id.ok()) return ToGrpc(id.status());
  absl::StatusOr<Rules> rules = LoadRules(*id, req->supplement());
  if (!rules.ok()) return ToGrpc(rules.status());
  out->set_name(req->name());
  *out->mutable_ruleset() = rules->ruleset();
  out->set_hash(rules->hash());
  if (rules->supplement() != nullptr) *out->mutable_supplement() = *rules->supplement();
  out->set_supplement_hash(rules->supplement_hash());
  *out->mutable_parameters() = rules->params();
  return grpc::Status::OK;
}

grpc::Status ArbiterService::GetClause(grpc::ServerContext*, const v1::GetClauseRequest* req,
                                       v1::Clause* out) {
  const std::string& clause = req->clause();
  const size_t slash = clause.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == clause.size()) {
    return ToGrpc(absl::InvalidArgumentError(
        absl::StrCat("clause: expected \"<ruleset>/<article>[.<clause>]\", got \"", clause, "\"")));
  }
  absl::StatusOr<Rules> rules = LoadRules(clause.substr(0, slash));
  if (!rules.ok()) return ToGrpc(rules.status());
  const v1::Clause* found = rules->FindClause(clause);
  if (found == nullptr) {
    return ToGrpc(absl::NotFoundError(absl::StrCat("clause '", clause, "' is not in ", rules->id())));
  }
  *out = *found;
  return grpc::Status::OK;
}

}  // namespace arbiter::service
