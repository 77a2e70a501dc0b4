// The server's handler of protobuf's log (adjudicator/service/protobuf_log.h):
// a request whose string is not UTF-8 writes nothing to the server's log,
// while protobuf's other messages still do. Against protobuf's own message,
// so a protobuf whose wording changed would fail here.
#include "adjudicator/service/protobuf_log.h"

#include <string>

#include "arbiter/v1/service.pb.h"
#include "gtest/gtest.h"

namespace arbiter::service {
namespace {

TEST(ProtobufLogTest, ARequestThatIsNotUtf8LeavesNoLineButOtherMessagesDo) {
  // AppendEventsRequest.game (field 1, a string) holding 0xff.
  const std::string bytes("\x0a\x01\xff", 3);
  v1::AppendEventsRequest request;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(request.ParseFromString(bytes));
  const std::string before = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(before.find("contains invalid UTF-8 data"), std::string::npos)
      << "protobuf's own handler no longer says so: " << before;

  KeepClientParseErrorsOutOfTheLog();
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(request.ParseFromString(bytes));
  GOOGLE_LOG(ERROR) << "another of protobuf's messages";
  const std::string after = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(after.find("invalid UTF-8"), std::string::npos) << after;
  EXPECT_NE(after.find("[libprotobuf ERROR"), std::string::npos) << after;
  EXPECT_NE(after.find("another of protobuf's messages"), std::string::npos) << after;
  google::protobuf::SetLogHandler(nullptr);
}

}  // namespace
}  // namespace arbiter::service
