#include "ledger/postgres/pg.h"

#include <endian.h>

#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::ledger {
namespace {

constexpr unsigned kInt8Oid = 20;
constexpr unsigned kTextOid = 25;
constexpr unsigned kByteaOid = 17;

absl::Status PgError(const PGresult* r, PGconn* conn, absl::string_view sql) {
  const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string code = state != nullptr ? state : "";
  std::string msg = r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(conn);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  msg = absl::StrCat(sql.substr(0, 60), ": ", msg, code.empty() ? "" : " (SQLSTATE " + code + ")");
  if (code == "23505") return absl::FailedPreconditionError(msg);
  if (code == "40001" || code == "40P01") return absl::AbortedError(msg);
  if (code == "53100") return absl::ResourceExhaustedError(msg);
  if (code == "XX001" || code == "XX002") return absl::DataLossError(msg);
  return absl::UnavailableError(msg);
}

}  // namespace

PgParams& PgParams::Int(int64_t v) {
  uint64_t be = htobe64(static_cast<uint64_t>(v));
  values_.emplace_back(reinterpret_cast<const char*>(&be), sizeof be);
  null_.push_back(false);
  types_.push_back(kInt8Oid);
  formats_.push_back(1);
  return *this;
}

PgParams& PgParams::Text(absl::string_view v) {
  values_.emplace_back(v);
  null_.push_back(false);
  types_.push_back(kTextOid);
  formats_.push_back(1);
  return *this;
}

PgParams& PgParams::Bytes(absl::string_view v) {
  values_.emplace_back(v);
  null_.push_back(false);
  types_.push_back(kByteaOid);
  formats_.push_back(1);
  return *this;
}

PgParams& PgParams::Null() {
  values_.emplace_back();
  null_.push_back(true);
  types_.push_back(0);
  formats_.push_back(0);
  return *this;
}

int64_t PgResult::Int(int row, int col) const {
  const char* v = PQgetvalue(r_.get(), row, col);
  switch (PQgetlength(r_.get(), row, col)) {
    case 8: {
      uint64_t be;
      std::memcpy(&be, v, 8);
      return static_cast<int64_t>(be64toh(be));
    }
    case 4: {
      uint32_t be;
      std::memcpy(&be, v, 4);
      return static_cast<int32_t>(be32toh(be));
    }
    case 2: {
      uint16_t be;
      std::memcpy(&be, v, 2);
      return static_cast<int16_t>(be16toh(be));
    }
    default:
      return 0;
  }
}

std::string PgResult::Bytes(int row, int col) const {
  return std::string(PQgetvalue(r_.get(), row, col), PQgetlength(r_.get(), row, col));
}

absl::StatusOr<PgConn> PgConn::Connect(const std::string& uri) {
  PgConn c;
  c.conn_.reset(PQconnectdb(uri.c_str()));
  if (c.conn_ == nullptr || PQstatus(c.conn_.get()) != CONNECTION_OK) {
    std::string why = c.conn_ != nullptr ? PQerrorMessage(c.conn_.get()) : "out of memory";
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return absl::UnavailableError(absl::StrCat("cannot connect to PostgreSQL: ", why));
  }
  // Notices (e.g. "relation already exists, skipping") are not errors.
  PQsetNoticeProcessor(
      c.conn_.get(), [](void*, const char*) {}, nullptr);
  return c;
}

// The values of `params` as libpq takes them.
struct PgParams::Values {
  explicit Values(const PgParams& params) : values(params.values_.size()), lengths(values.size()) {
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = params.null_[i] ? nullptr : params.values_[i].data();
      lengths[i] = static_cast<int>(params.values_[i].size());
    }
  }
  std::vector<const char*> values;
  std::vector<int> lengths;
};

absl::StatusOr<PgResult> PgConn::Exec(absl::string_view sql, const PgParams& params) {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  const PgParams::Values v(params);
  std::string text(sql);
  PGresult* r = PQexecParams(conn_.get(), text.c_str(), static_cast<int>(v.values.size()),
                             params.types_.data(), v.values.data(), v.lengths.data(),
                             params.formats_.data(), 1);
  return Checked(r, sql);
}

absl::StatusOr<PgResult> PgConn::Checked(PGresult* r, absl::string_view sql) {
  ExecStatusType st = r != nullptr ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    absl::Status s = PgError(r, conn_.get(), sql);
    PQclear(r);
    return s;
  }
  return PgResult(r);
}

absl::Status PgConn::Send(absl::string_view sql, const PgParams& params) {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  const PgParams::Values v(params);
  sent_.assign(sql.data(), sql.size());
  if (PQsendQueryParams(conn_.get(), sent_.c_str(), static_cast<int>(v.values.size()),
                        params.types_.data(), v.values.data(), v.lengths.data(),
                        params.formats_.data(), 1) == 0) {
    return PgError(nullptr, conn_.get(), sql);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<PgResult>> PgConn::TakeResult() {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  if (PQconsumeInput(conn_.get()) == 0) return PgError(nullptr, conn_.get(), sent_);
  if (PQisBusy(conn_.get()) != 0) return std::nullopt;
  absl::StatusOr<PgResult> r = Checked(PQgetResult(conn_.get()), sent_);
  // The statement's end (a null result) follows its one result, but may not
  // have come yet: it is read later (PQgetResult would wait for it), by
  // whatever next reads the connection.
  while (PQisBusy(conn_.get()) == 0) {
    PGresult* rest = PQgetResult(conn_.get());
    if (rest == nullptr) break;
    PQclear(rest);
  }
  if (!r.ok()) return r.status();
  return std::optional<PgResult>(*std::move(r));
}

absl::StatusOr<PgResult> PgConn::AwaitResult() {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  absl::StatusOr<PgResult> r = Checked(PQgetResult(conn_.get()), sent_);
  while (PGresult* rest = PQgetResult(conn_.get())) PQclear(rest);
  return r;
}

absl::StatusOr<int> PgConn::TakeNotifications() {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  if (PQconsumeInput(conn_.get()) == 0) {
    return absl::UnavailableError(
        absl::StrCat("PostgreSQL connection lost: ", PQerrorMessage(conn_.get())));
  }
  int n = 0;
  while (PGnotify* notify = PQnotifies(conn_.get())) {
    PQfreemem(notify);
    ++n;
  }
  return n;
}

absl::Status PgConn::Run(absl::string_view sql) {
  if (conn_ == nullptr) return absl::UnavailableError("not connected to PostgreSQL");
  std::string text(sql);
  std::unique_ptr<PGresult, void (*)(PGresult*)> r(PQexec(conn_.get(), text.c_str()), PQclear);
  ExecStatusType st = r != nullptr ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return PgError(r.get(), conn_.get(), sql);
  return absl::OkStatus();
}

absl::StatusOr<PgTransaction> PgTransaction::Begin(PgConn& conn, absl::string_view mode) {
  if (absl::Status s = conn.Run(absl::StrCat("BEGIN ", mode)); !s.ok()) return s;
  return PgTransaction(&conn);
}

PgTransaction::~PgTransaction() {
  if (conn_ != nullptr && conn_->ok()) (void)conn_->Run("ROLLBACK");
}

absl::Status PgTransaction::Commit(absl::string_view first) {
  absl::Status s = conn_->Run(first.empty() ? "COMMIT" : absl::StrCat(first, "; COMMIT"));
  if (s.ok()) conn_ = nullptr;
  return s;
}

}  // namespace arbiter::ledger
