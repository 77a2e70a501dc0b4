// An event as the readable outputs name it.
#ifndef ARBITER_CLI_EVENT_TEXT_H_
#define ARBITER_CLI_EVENT_TEXT_H_

#include <string>

#include "arbiter/v1/events.pb.h"

namespace arbiter::cli {

// The JSON key of an event's kind ("phoneRang"); "?" when it has none.
std::string EventKind(const v1::Event& event);

// The kind's fields as compact JSON ({"color":"BLACK"}); "" when it has none.
std::string EventDetails(const v1::Event& event);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_EVENT_TEXT_H_
