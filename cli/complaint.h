// Every error a user can cause is one line on stderr:
//
//   arbiter COMMAND: what, where, why[; hint]
//
// naming the flag, the file or the line at fault. A message that arrives
// with several lines (protobuf's JSON parser, a server's status, an OS
// error) is folded into that one line here, so a script or a person reading
// a terminal sees one error per failure and the exit status (exit_codes.h)
// says which kind.
#ifndef ARBITER_CLI_COMPLAINT_H_
#define ARBITER_CLI_COMPLAINT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::cli {

// `text` on one line: each run of line breaks (and the blanks around it)
// becomes "; ", and blanks at either end are dropped.
std::string OneLine(absl::string_view text);

// Prints "arbiter COMMAND: WHAT" (OneLine) and a newline to stderr; returns
// `exit`. COMMAND is as typed: "record", "tournament import"; empty for the
// binary itself ("arbiter: WHAT").
int Complain(absl::string_view command, absl::string_view what, int exit);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_COMPLAINT_H_
