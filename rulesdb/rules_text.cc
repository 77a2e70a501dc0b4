#include "rulesdb/rules_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace arbiter {
namespace {

// Collects parser errors as "name:line:column: message".
class CollectErrors : public google::protobuf::io::ErrorCollector {
 public:
  explicit CollectErrors(std::string_view name) : name_(name) {}

  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    // The tokenizer counts from 0; editors and compilers count from 1.
    errors_.push_back(absl::StrCat(name_, ":", line + 1, ":", column + 1, ": ", message));
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string name_;
  std::vector<std::string> errors_;
};

}  // namespace

absl::Status MergeRulesText(std::string_view name, std::string_view text,
                            google::protobuf::Message* message) {
  CollectErrors errors(name);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.AllowPartialMessage(false);
  if (!parser.MergeFromString(std::string(text), message)) {
    if (errors.errors().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(name), ": cannot parse as ", message->GetTypeName()));
    }
    return absl::InvalidArgumentError(absl::StrJoin(errors.errors(), "\n"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter
