// What a server lets protobuf write to its log. protobuf logs, at ERROR,
// each string field that is not UTF-8 as it parses a message: on a server,
// a request a client sent, which the authorization interceptor then refuses
// INVALID_ARGUMENT (before any token is looked at). One line of 221 bytes a
// request let a caller with no token write a gigabyte an hour to the log;
// such lines say nothing the client was not told. Every other message of
// protobuf's passes on to stderr as protobuf would write it.
#ifndef ARBITER_ADJUDICATOR_SERVICE_PROTOBUF_LOG_H_
#define ARBITER_ADJUDICATOR_SERVICE_PROTOBUF_LOG_H_

#include <string>

#include "google/protobuf/stubs/logging.h"

namespace arbiter::service {

// Installs the server's handler of protobuf's log, for the whole process.
void KeepClientParseErrorsOutOfTheLog();

// Whether the server's handler writes protobuf's `message` at `level`.
bool LogsProtobufMessage(google::protobuf::LogLevel level, const std::string& message);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_PROTOBUF_LOG_H_
