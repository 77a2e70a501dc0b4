// The direction of includes between the project's folders (README.md,
// "Layout"): proto <- rulesdb <- engine; tournament (pure); ledger (knows no
// engine); the judge adapter (adjudicator/judge) on the engine and
// ledger/judge.h; service on top of those; cli on top of all; tests above
// everything. Above the ledger only its public headers (the top of ledger/)
// are included, never ledger/internal/ (save by the ledger's own tests). A rule names the folder it
// applies to and what that folder may not include.
#ifndef ARBITER_TESTS_LAYERING_INCLUDE_RULES_H_
#define ARBITER_TESTS_LAYERING_INCLUDE_RULES_H_

#include <string>
#include <vector>

namespace arbiter::layering {

// One #include that breaks a rule.
struct Violation {
  std::string file;     // relative to the tree's root
  int line = 0;         // 1-based
  std::string include;  // as written between the quotes or brackets
  std::string rule;     // which rule, in words
};

// Every violation in the C++ files (.h, .cc) under `root`, a tree laid out
// as the repository is, sorted by file and line. Folders the rules do not
// name are not read.
std::vector<Violation> CheckIncludes(const std::string& root);

// "file:line: includes X: rule"
std::string Describe(const Violation& v);

}  // namespace arbiter::layering

#endif  // ARBITER_TESTS_LAYERING_INCLUDE_RULES_H_
