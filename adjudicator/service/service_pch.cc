// The translation unit of the arbiter_service_pch target, which only exists
// to build service_pch.h's precompiled header (CMakeLists.txt here).
