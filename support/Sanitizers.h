//===- Sanitizers.h - Whether this build checks for leaks -------*- C++ -*-===//
//
// ONYX_LEAK_CHECKED is defined where AddressSanitizer (and with it
// LeakSanitizer) is built in: gcc says so with __SANITIZE_ADDRESS__, clang
// with __has_feature. Code that leaks on purpose, or that must let the leak
// check see what a child leaks, asks this one place.
//
//===----------------------------------------------------------------------===//
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ONYX_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ONYX_LEAK_CHECKED 1
#endif
#endif
