// "Did you mean ...?" for a mistyped flag, command or subcommand: the known
// name nearest to what was typed, by edit distance.
#ifndef ARBITER_CLI_NEAREST_H_
#define ARBITER_CLI_NEAREST_H_

#include <optional>
#include <span>
#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::cli {

// The number of single-character insertions, deletions, substitutions and
// swaps of two neighbours that turn `a` into `b` (optimal string alignment),
// ASCII case ignored.
int EditDistance(absl::string_view a, absl::string_view b);

// The candidate nearest to `typed`, if it is near enough to be what was
// meant: at most a third of the longer name's length away (so one slip in a
// short name, two in `--checkpoint-evry`), or `typed` is a prefix of it. On a
// tie the first candidate wins. nullopt when none is near.
std::optional<std::string> Nearest(absl::string_view typed,
                                   std::span<const absl::string_view> candidates);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_NEAREST_H_
