// The lookups an export table needs, shared by the tournament formats
// (export_formats.h) and the game formats (adjudicator/service/
// game_exports.h): a row by its proto enum value or by the name the CLI
// takes, and the names as "a, b or c" for help and errors. A row is any
// struct with `format`, `name` and `label` members. Header only, pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_TABLE_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_TABLE_H_

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace arbiter::tournament {

// The row whose `format` is `format`, or nullptr.
template <typename Row, typename Format>
const Row* FindExportRow(absl::Span<const Row> rows, Format format) {
  for (const Row& r : rows) {
    if (r.format == format) return &r;
  }
  return nullptr;
}

// The row whose `name` is `name`, ASCII case ignored, or nullptr.
template <typename Row>
const Row* FindExportRowByName(absl::Span<const Row> rows, absl::string_view name) {
  for (const Row& r : rows) {
    if (absl::EqualsIgnoreCase(r.name, name)) return &r;
  }
  return nullptr;
}

// The rows' labels, "a, b or c".
template <typename Row>
std::string ExportLabels(absl::Span<const Row> rows) {
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : i + 1 == rows.size() ? " or " : ", ", rows[i].label);
  }
  return out;
}

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_TABLE_H_
