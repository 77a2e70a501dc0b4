// The main() of the end-to-end tests that share one `arbiter serve`
// (e2e_util.h): the server starts before the first test and stops after the
// last.
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new arbiter::testing::ServerEnvironment());
  return RUN_ALL_TESTS();
}
