#include "adjudicator/service/protobuf_log.h"

#include <cstdio>

namespace arbiter::service {
namespace {

constexpr const char* kLevelNames[] = {"INFO", "WARNING", "ERROR", "FATAL"};

void ServerLogHandler(google::protobuf::LogLevel level, const char* filename, int line,
                      const std::string& message) {
  if (!LogsProtobufMessage(level, message)) return;
  // protobuf's own format (its default handler's).
  std::fprintf(stderr, "[libprotobuf %s %s:%d] %s\n", kLevelNames[level], filename, line,
               message.c_str());
  std::fflush(stderr);
}

}  // namespace

bool LogsProtobufMessage(google::protobuf::LogLevel level, const std::string& message) {
  return level == google::protobuf::LOGLEVEL_FATAL ||
         message.find("contains invalid UTF-8 data when parsing a protocol buffer") ==
             std::string::npos;
}

void KeepClientParseErrorsOutOfTheLog() { google::protobuf::SetLogHandler(ServerLogHandler); }

}  // namespace arbiter::service
