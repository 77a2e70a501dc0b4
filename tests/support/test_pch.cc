// The translation unit of the arbiter_test_pch target, which only exists to
// build support/test_pch.h's precompiled header (tests/CMakeLists.txt): the
// build force-includes that header here as in every test file.
